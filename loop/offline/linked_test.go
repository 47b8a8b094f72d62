package offline

import (
	"strings"
	"testing"
)

// Linked inputs and token lists (docs/offline.md): graphs of a node class built in the
// Arrange step, results asserted by the nodes' identity, and token streams made of the
// method's own literals, each through the real worker, javac and JUnit.

const linkedExtra = `
    /** A node whose toString must never be what a test asserts. */
    public static final class GNode {
        private final String name;
        private final List<GNode> next = new ArrayList<>();

        public GNode(String name) {
            this.name = name;
        }

        public GNode connect(GNode other) {
            next.add(other);
            return this;
        }

        public List<GNode> getNext() {
            return next;
        }

        @Override
        public String toString() {
            return "GNode#" + name;
        }
    }

    /** A path with the fewest edges from start to goal, or an empty list. */
    public static List<GNode> path(GNode start, GNode goal) {
        java.util.Map<GNode, GNode> parent = new java.util.HashMap<>();
        java.util.ArrayDeque<GNode> queue = new java.util.ArrayDeque<>();
        parent.put(start, null);
        queue.add(start);
        while (!queue.isEmpty()) {
            GNode current = queue.poll();
            if (current == goal) {
                List<GNode> out = new ArrayList<>();
                for (GNode n = goal; n != null; n = parent.get(n)) {
                    out.add(0, n);
                }
                return out;
            }
            for (GNode n : current.getNext()) {
                if (!parent.containsKey(n)) {
                    parent.put(n, current);
                    queue.add(n);
                }
            }
        }
        return new ArrayList<>();
    }

    /** Infix + and - over Integer tokens and operator strings, left to right. */
    public static long evalTokens(List<Object> tokens) {
        long value = 0;
        String op = "+";
        boolean operand = true;
        for (Object t : tokens) {
            if (operand) {
                if (!(t instanceof Integer)) {
                    throw new IllegalArgumentException("operand expected: " + t);
                }
                int v = (Integer) t;
                value = op.equals("+") ? value + v : value - v;
            } else {
                if (!"+".equals(t) && !"-".equals(t)) {
                    throw new IllegalArgumentException("operator expected: " + t);
                }
                op = (String) t;
            }
            operand = !operand;
        }
        if (operand) {
            throw new IllegalArgumentException("dangling operator");
        }
        return value;
    }
`

// TestLinkedGraphKillsAPathMutant: a wrong-parent mutant of a breadth-first path shows only on
// a graph with a path of two edges; the test builds one in its Arrange step, through the node's
// constructor and connect, and asserts the path by the nodes' variables, never their toString.
func TestLinkedGraphKillsAPathMutant(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, linkedExtra, "path")
	m := mutantOn(t, s, "parent.put(n, current);", "parent.put(n, start);")
	tests, err := a.KillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	checkKills(t, proj, s, m, tests)
	src := tests[0].Source
	for _, want := range []string{"PriceCalculator.GNode a = new PriceCalculator.GNode(\"a\");", "a.connect(b);", "Arrays.asList(a, "} {
		if !strings.Contains(src, want) {
			t.Errorf("the test lacks %q:\n%s", want, src)
		}
	}
	if !strings.Contains(src, "        // a chain") && !strings.Contains(src, "        // a diamond") {
		t.Errorf("the Arrange step does not say the graph's shape:\n%s", src)
	}
	if strings.Contains(src, "GNode#") {
		t.Errorf("a node's toString is asserted:\n%s", src)
	}
	t.Logf("generated test:\n%s", src)
}

// TestTokenListsKillAnOperatorMutant: a List<Object> evaluator gets token streams made of its
// own literals ("+", "-") and numbers; a mutant that treats "-" as "+" is killed.
func TestTokenListsKillAnOperatorMutant(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, linkedExtra, "evalTokens")
	m := mutantOn(t, s, `if (!"+".equals(t) && !"-".equals(t)) {`, `if (!"+".equals(t) && !"*".equals(t)) {`)
	tests, err := a.KillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	checkKills(t, proj, s, m, tests)
	if !strings.Contains(tests[0].Source, `"-"`) || !strings.Contains(tests[0].Source, "Arrays.asList(6") {
		t.Errorf("the test does not pass a token stream with \"-\":\n%s", tests[0].Source)
	}
	t.Logf("generated test:\n%s", tests[0].Source)
}

// TestShapeInputsOnePerShapeFirst: the initial suite's graph inputs go round the shapes, one
// each with an outcome of its own on that shape before a second one, and skip other inputs.
func TestShapeInputsOnePerShapeFirst(t *testing.T) {
	rec := func(shape, ret string) *record {
		return &record{GraphToken: shape, outcome: outcome{K: "ret", Ret: &value{K: "prim", V: ret}}}
	}
	rs := []*record{
		rec("Chain", "0"), rec("Chain", "0"), rec("Chain", "2"), rec("Chain", "-1"),
		rec("Diamond", "0"), rec("Diamond", "2"),
		rec("", "7"), rec("OneNode", "0"), rec("ChainMaxWeights", "9"),
		rec("TwoPaths", "2"),
	}
	got := shapeInputs(rs)
	want := []*record{rs[0], rs[4], rs[9], rs[2], rs[5]}
	if len(got) != len(want) {
		t.Fatalf("got %d inputs, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("input %d: got %s=%s, want %s=%s", i, got[i].GraphToken, got[i].outcome.Ret.V, want[i].GraphToken, want[i].outcome.Ret.V)
		}
	}
}
