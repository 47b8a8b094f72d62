package offline

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// The agent on code shaped like a user's rather than like a demo: a stateful class without
// toString, an overflow that shows only inside an array, a method whose output explodes, and
// a method it cannot drive at all (docs/fault-bench.md has the benchmark these come from).

const realExtra = `
    /** A rate limiter without toString: limits given to its constructor, the time passed in. */
    public static final class Meter {
        private final int capacity;
        private final double perSecond;
        private final long created = System.nanoTime();
        private final List<Object> grants = new ArrayList<>();
        private double tokens;
        private long last;

        public Meter(int capacity, double perSecond, long now) {
            if (capacity <= 0) {
                throw new IllegalArgumentException("capacity must be positive: " + capacity);
            }
            if (perSecond < 0) {
                throw new IllegalArgumentException("rate must not be negative: " + perSecond);
            }
            this.capacity = capacity;
            this.perSecond = perSecond;
            this.tokens = capacity;
            this.last = now;
        }

        public int available() {
            return (int) tokens;
        }

        public long createdAt() {
            return created;
        }

        public List<Object> grants() {
            return grants;
        }

        public boolean take(long now) {
            long elapsed = Math.max(0, now - last);
            tokens = Math.min(capacity, tokens + elapsed * perSecond / 1000.0);
            last = Math.max(last, now);
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            grants.add(new Object());
            return true;
        }
    }

    public static double mean(int[] values) {
        if (values.length == 0) {
            return 0.0;
        }
        long sum = 0;
        for (int v : values) {
            sum += v;
        }
        return (double) sum / values.length;
    }

    /** Every path of n steps left, right or up: 3^n of them. */
    public static List<String> paths(int n) {
        List<String> out = new ArrayList<>();
        if (n <= 0) {
            out.add("");
            return out;
        }
        for (String p : paths(n - 1)) {
            for (char step : new char[] {'L', 'R', 'U'}) {
                out.add(p + step);
            }
        }
        return out;
    }

    /** No getter, no toString: what record does shows only in its fields. */
    public static final class Tally {
        private int count;
        private long total;

        public void record(int amount) {
            if (amount > 0) {
                count++;
                total += amount;
            }
        }
    }

    /** Every call allocates without end, whatever its input. */
    public static int hoard(int chunk) {
        List<long[]> kept = new ArrayList<>();
        while (kept.size() >= 0) {
            kept.add(new long[Math.max(1024, Math.abs(chunk % 4096))]);
        }
        return kept.size();
    }

    /** Its state shows only through a query that takes the same key as the mutator. */
    public static final class Stock {
        private final java.util.Map<String, Integer> counts = new java.util.HashMap<>();

        public void add(String item, int n) {
            if (n > 0) {
                counts.merge(item, n, Integer::sum);
            }
        }

        public int quantity(String item) {
            return counts.getOrDefault(item, 0);
        }

        public void remove(String item, int n) {
            int have = counts.getOrDefault(item, 0);
            if (n <= 0 || n > have) {
                return;
            }
            counts.put(item, have - n);
        }
    }

    public static final class Sealed {
        public Sealed() {
            throw new IllegalStateException("sealed");
        }

        public int doubled(int x) {
            return 2 * x;
        }
    }
`

// TestStatefulClassWithoutToString: a receiver built through a constructor that takes its
// limits, with an unstable getter (a timestamp) and one whose elements show identity hashes,
// still gets an initial suite and tests that kill its mutants.
func TestStatefulClassWithoutToString(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, realExtra, "take")
	initial, why, err := a.ExplainedInitialSuite(testCtx(t), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(initial) == 0 {
		t.Fatalf("no initial test for Meter.take: %s", why)
	}
	for _, tc := range initial {
		if strings.Contains(tc.Source, "createdAt") || strings.Contains(tc.Source, "@") && strings.Contains(tc.Source, "Object@") {
			t.Errorf("an unstable observation is asserted:\n%s", tc.Source)
		}
	}
	t.Logf("initial suite:\n%s", initial[0].Source)
	for _, c := range []struct{ from, to string }{
		{"tokens = Math.min(capacity, tokens + elapsed * perSecond / 1000.0);", "tokens = tokens + elapsed * perSecond / 1000.0;"},
		{"tokens -= 1;", "tokens -= 2;"},
		{"if (tokens < 1) {", "if (tokens <= 1) {"},
	} {
		t.Run(c.to, func(t *testing.T) {
			m := mutantOn(t, s, c.from, c.to)
			tests, why, err := a.ExplainedKillMutant(testCtx(t), s, m)
			if err != nil {
				t.Fatal(err)
			}
			if len(tests) == 0 {
				t.Fatalf("no test: %s", why)
			}
			checkKills(t, proj, s, m, tests)
			t.Logf("generated test:\n%s", tests[0].Source)
		})
	}
}

// TestPrivateStateIsNeverRead: a receiver with neither getters, toString nor accessible fields
// shows nothing a test can observe. A mutant that changes only its private fields gets no test
// (none reads a field through reflection, none claims a kill it cannot show), and the evidence
// says that the changed value never reached anything a test can see.
func TestPrivateStateIsNeverRead(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, realExtra, "record")
	m := mutantOn(t, s, "if (amount > 0) {", "if (amount >= 0) {")
	tests, ev, err := a.ExplainedKillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("why: %s", ev.Why)
	for _, tc := range tests {
		if usesReflection(tc.Source, tc.Imports) {
			t.Errorf("a test reads state through reflection:\n%s", tc.Source)
		}
	}
	if len(tests) > 0 {
		t.Errorf("%d tests for a mutant no accessible method shows; the first:\n%s", len(tests), tests[0].Source)
	}
	if inf := ev.Infection; inf == nil || inf.Infected == 0 || inf.Propagated != 0 {
		t.Errorf("evidence %+v: want inputs that changed the value and none that changed what a test sees", inf)
	}
}

// TestOverflowInAnArray: a sum that overflows only when large elements are combined is found,
// by the initial suite itself (as the fault benchmark checks) and against the mutant.
func TestOverflowInAnArray(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, realExtra, "mean")
	m := mutantOn(t, s, "long sum = 0;", "int sum = 0;")
	initial, err := a.InitialSuite(testCtx(t), s)
	if err != nil {
		t.Fatal(err)
	}
	checkKills(t, proj, s, m, initial)
	tests, err := a.KillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	checkKills(t, proj, s, m, tests)
	t.Logf("generated test:\n%s", tests[0].Source)
}

// TestExplodingOutputIsBounded: calls whose result grows as 3^n are stopped at the memory bound
// (or the stack's, or the time limit), the exploration still reaches its end, large results are
// asserted by their size, and the mutant is killed.
func TestExplodingOutputIsBounded(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, realExtra, "paths")
	e, err := a.explore(testCtx(t), harness.Source{ClassName: s.Method.TopLevelClass, Text: string(s.Source)}, "org.acme", 5, a.params(s))
	if err != nil {
		t.Fatal(err)
	}
	if !e.complete {
		t.Fatalf("the exploration did not reach its end (%d records)", len(e.records))
	}
	bounded, big := 0, 0
	for _, r := range e.records {
		switch r.outcome.K {
		case "bound", "timeout":
			bounded++
		case "ret":
			if r.outcome.Ret.K == "big" {
				big++
			}
		}
	}
	if bounded == 0 || big == 0 {
		t.Fatalf("%d calls past a bound, %d results summarised: want both", bounded, big)
	}
	initial, err := a.InitialSuite(testCtx(t), s)
	if err != nil || len(initial) == 0 {
		t.Fatalf("InitialSuite: %v, %d tests", err, len(initial))
	}
	for _, tc := range initial {
		if len(tc.Source) > 4000 {
			t.Errorf("a test of %d characters: large results must be summarised", len(tc.Source))
		}
	}
	m := mutantOn(t, s, "new char[] {'L', 'R', 'U'}", "new char[] {'L', 'R'}")
	tests, err := a.KillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	checkKills(t, proj, s, m, tests)
}

// TestCannotDriveSaysWhy: a receiver whose constructor always throws gives no test, and the
// agent says why in one sentence, for the method and for its mutants.
func TestCannotDriveSaysWhy(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, realExtra, "doubled")
	var x agent.Explainer = a
	tests, why, err := x.ExplainedInitialSuite(testCtx(t), s)
	if err != nil || len(tests) != 0 {
		t.Fatalf("InitialSuite: %v, %d tests", err, len(tests))
	}
	if !strings.Contains(why.Why, "every input failed before the call") || !strings.Contains(why.Why, "IllegalStateException") {
		t.Fatalf("why = %q", why)
	}
	m := mutantOn(t, s, "return 2 * x;", "return 3 * x;")
	tests, mwhy, err := a.ExplainedKillMutant(testCtx(t), s, m)
	if err != nil || len(tests) != 0 {
		t.Fatalf("KillMutant: %v, %d tests", err, len(tests))
	}
	if !strings.Contains(mwhy.Why, "every input failed before the call") {
		t.Fatalf("why (mutant) = %q", mwhy)
	}
	t.Logf("why: %s", why)
}

// TestQueryWithTheCallsArguments: after a void mutator, the receiver is asked a query with the
// call's own argument (stock.quantity("a") after stock.add("a", 3) and stock.remove("a", 2)), and the test
// asserts it.
func TestQueryWithTheCallsArguments(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, realExtra, "remove")
	m := mutantOn(t, s, "counts.put(item, have - n);", "counts.put(item, have - 1);")
	tests, err := a.KillMutant(testCtx(t), s, m)
	if err != nil {
		t.Fatal(err)
	}
	checkKills(t, proj, s, m, tests)
	if !strings.Contains(tests[0].Source, ".quantity(") {
		t.Errorf("the test does not ask quantity(item):\n%s", tests[0].Source)
	}
	t.Logf("generated test:\n%s", tests[0].Source)
}

// TestEveryInputHitsABound: a method whose every call passes the memory bound gives no test;
// the exploration stops after the first few such calls (rather than trying all its inputs) and
// the agent says that every call hit a bound.
func TestEveryInputHitsABound(t *testing.T) {
	proj, file := calculator(t)
	// a wall-clock budget far above what three calls need: with the default 1.5 s a loaded
	// machine ended the exploration by its budget after two calls, and the count was the load's
	a, err := New(proj.Pool, Options{CacheDir: filepath.Join(t.TempDir(), "cache"), Budget: time.Minute,
		Logger: zaptest.NewLogger(t, zaptest.Level(zap.DebugLevel))})
	if err != nil {
		t.Fatal(err)
	}
	s := withExtra(t, proj, file, realExtra, "hoard")
	tests, why, err := a.ExplainedInitialSuite(testCtx(t), s)
	if err != nil || len(tests) != 0 {
		t.Fatalf("InitialSuite: %v, %d tests", err, len(tests))
	}
	if !strings.Contains(why.Why, "every call hit a bound") {
		t.Fatalf("why = %q", why)
	}
	if len(why.Facts) == 0 || why.Facts[0] != "3 inputs tried" {
		t.Errorf("facts %q: want the exploration stopped after 3 calls past a bound", why.Facts)
	}
	t.Logf("why: %s", why)
}
