package indent

import (
	"strings"
	"testing"
)

func TestJavaReindentsByDepth(t *testing.T) {
	// A member laid out at depth: a Javadoc, a switch, a call across lines, a text block.
	want := `    /**
     * Checks the sum.
     */
    @Test
    void sums() {
        int total = Calc.sum(1,
                2);
        switch (total) {
            case 3:
                ok();
                break;
            default: {
                fail();
            }
        }
        String s = """
            a "b"
              c""";
        if (total > 0) { total--; } else {
            total++;
        }
    }
`
	// The same member as a model may write it: any indentation, the first line at column 0
	// (a node's text); a text block's lines move with its first line.
	if got := Java(scramble(want), "    ", "    "); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// scramble re-indents text's lines arbitrarily, its first line not at all, keeping the lines
// of a text block where they stand against its first line.
func scramble(text string) string {
	var b strings.Builder
	shift, inBlock := 0, false
	for i, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		own := len(l) - len(strings.TrimLeft(l, " "))
		if inBlock {
			b.WriteString(strings.Repeat(" ", own+shift) + strings.TrimLeft(l, " ") + "\n")
		} else {
			n := (i * 3) % 7
			if i == 0 {
				n = 0
			}
			shift = n - own
			b.WriteString(strings.Repeat(" ", n) + strings.TrimLeft(l, " ") + "\n")
		}
		if strings.Count(l, `"""`)%2 == 1 {
			inBlock = !inBlock
		}
	}
	return b.String()
}

func TestJavaKeepsAFieldOnOneLine(t *testing.T) {
	if got := Java("private static final double EXACT = 0.0;", "    ", "    "); got != "    private static final double EXACT = 0.0;\n" {
		t.Errorf("got %q", got)
	}
	// Tabs and a continued initialiser.
	in := "\t\tprivate final int[] values = {\n\t\t\t1, 2,\n\t\t\t3 };"
	want := "\tprivate final int[] values = {\n\t\t1, 2,\n\t\t3 };\n"
	if got := Java(in, "\t", "\t"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// An annotation with arguments that hold '=' is no open statement: the method under it stays
// at its level (a JUnit 4 test with expected = ... was written twelve spaces deep).
func TestJavaAnnotationWithArguments(t *testing.T) {
	want := `    @Test(expected = NullPointerException.class)
    public void digestThrows() throws Exception {
        @SuppressWarnings(value = "unchecked") @Deprecated
        int x = compute(1,
                2);
    }
`
	if got := Java(scramble(want), "    ", "    "); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	for c, want := range map[string]bool{
		"@Test":                            true,
		"@Test(expected = X.class)":        true,
		"@A(1) @B":                         true,
		"@A(x = f(1)) int y =":             false,
		"@Rule public TemporaryFolder f =": false,
		"int a = @A(1) b":                  false,
	} {
		if got := annotationsOnly(c); got != want {
			t.Errorf("annotationsOnly(%q) = %v", c, got)
		}
	}
}
