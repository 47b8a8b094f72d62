package offline

import (
	"reflect"
	"testing"
)

// TestChangedFirst: the observations that differ from the receiver's come first, the rest keep
// their order, and one the receiver lacks counts as unchanged.
func TestChangedFirst(t *testing.T) {
	ob := func(m, v string) observed { return observed{M: m + "()", R: value{K: "prim", T: "char", V: v}} }
	result := []observed{ob("getA", "'x'"), ob("getB", "'y'"), ob("getC", "'z'"), ob("getD", "'n'"), ob("getE", "'e'")}
	recv := []observed{ob("getA", "'x'"), ob("getB", "'y'"), ob("getC", "'z'"), ob("getD", "'m'")}
	got := changedFirst(result, recv)
	want := []observed{result[3], result[0], result[1], result[2], result[4]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changedFirst = %v, want %v", got, want)
	}
}

// styleExtra is an immutable value with more getters than a test asserts, the one a wither
// changes last in alphabetical order (CSVFormat.withDelimiter on the workbench).
const styleExtra = `
    public static final class Style {
        private final boolean align;
        private final boolean border;
        private final boolean color;
        private final char separator;

        public Style(char separator) {
            this(false, true, false, separator);
        }

        private Style(boolean align, boolean border, boolean color, char separator) {
            this.align = align;
            this.border = border;
            this.color = color;
            this.separator = separator;
        }

        public boolean getAlign() {
            return align;
        }

        public boolean getBorder() {
            return border;
        }

        public boolean getColor() {
            return color;
        }

        public char getSeparator() {
            return separator;
        }

        public Style withSeparator(char s) {
            return new Style(align, border, color, s);
        }
    }
`

// TestWitherAssertsWhatItChanged: the initial suite of a method returning a changed copy
// asserts the getter that differs from the receiver's, so a wither that forgets its argument
// fails it (before, the first three getters by name were asserted, none of them the changed one).
func TestWitherAssertsWhatItChanged(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, styleExtra, "withSeparator")
	m := mutantOn(t, s, "color, s)", "color, separator)")
	initial, err := a.InitialSuite(testCtx(t), s)
	if err != nil {
		t.Fatal(err)
	}
	checkKills(t, proj, s, m, initial)
}
