package offline

import (
	"strings"
	"testing"
)

func obs(m, v string) observed { return observed{M: m, R: value{K: "prim", V: v, T: "long"}} }

// TestUnstableObservationsDroppedOneByOne: an observer that differs between the two runs of
// the original (a timestamp) is dropped from every input, the rest of the outcome is kept; a
// different kind of outcome drops the input.
func TestUnstableObservationsDroppedOneByOne(t *testing.T) {
	st := newStability()
	a1 := outcome{K: "ret", Ret: &value{K: "bool", V: "true"}, State: []observed{obs("available()", "2"), obs("createdAt()", "111")}}
	b1 := outcome{K: "ret", Ret: &value{K: "bool", V: "true"}, State: []observed{obs("available()", "2"), obs("createdAt()", "222")}}
	a2 := outcome{K: "ret", Ret: &value{K: "bool", V: "false"}, State: []observed{obs("available()", "0"), obs("createdAt()", "333")}}
	b2 := a2
	if !st.compareRuns(&a1, &b1) || !st.compareRuns(&a2, &b2) {
		t.Fatal("same kinds must be kept")
	}
	if st.compareRuns(&outcome{K: "ret"}, &outcome{K: "throw", X: "IllegalStateException"}) {
		t.Fatal("different kinds must drop the input")
	}
	for _, p := range [][2]*outcome{{&a1, &b1}, {&a2, &b2}} {
		if !st.clean(p[0], p[1]) {
			t.Fatal("nothing left")
		}
		if len(p[0].State) != 1 || p[0].State[0].M != "available()" {
			t.Errorf("state after cleaning: %+v", p[0].State)
		}
	}
	if !strings.Contains(st.mostUnstable(), "createdAt()") {
		t.Errorf("mostUnstable = %q", st.mostUnstable())
	}
	// a result that differs on its input is not asserted, and an input with nothing else is dropped
	st = newStability()
	c1 := outcome{K: "ret", Ret: &value{K: "prim", V: "5", T: "long"}}
	c2 := outcome{K: "ret", Ret: &value{K: "prim", V: "6", T: "long"}}
	st.compareRuns(&c1, &c2)
	if st.clean(&c1, &c2) {
		t.Errorf("an input whose only observation is unstable is kept: %+v", c1)
	}
	// the mutant is compared on what is left
	u := outcome{K: "ret", Ret: &value{K: "bool", V: "true"}, State: []observed{obs("available()", "1"), obs("createdAt()", "999")}}
	em, differ := outcomesDiffer(&a1, &u)
	if !differ || len(em.state) != 1 || em.state[0] != "available()" {
		t.Errorf("outcomesDiffer = %+v, %v", em, differ)
	}
	u.State[0] = obs("available()", "2")
	if _, differ := outcomesDiffer(&a1, &u); differ {
		t.Error("only the dropped observer differs: no difference")
	}
}

// TestWhyNoStableInput: the sentence says what every input did.
func TestWhyNoStableInput(t *testing.T) {
	for _, c := range []struct {
		kinds map[string]int
		want  string
	}{
		{map[string]int{"timeout": 2, "bound": 1}, "every call hit a bound"},
		{map[string]int{"arrange": 5}, "every input failed before the call"},
		{map[string]int{}, "ran no input"},
	} {
		n := 0
		for _, v := range c.kinds {
			n += v
		}
		o := &original{inputs: n, kinds: c.kinds, stab: newStability(), params: explorerParams{perCall: 500 * 1e6}}
		if got := o.noStableInput(); !strings.Contains(got.Why, c.want) {
			t.Errorf("%v: %q, want %q", c.kinds, got, c.want)
		}
	}
	o := &original{inputs: 4, kinds: map[string]int{"ret": 4}, stab: newStability()}
	o.stab.unstable["the result"] = 4
	if got := o.noStableInput().String(); !strings.Contains(got, "differed between two runs of the original, in the result") || !strings.Contains(got, "4 inputs tried") {
		t.Errorf("unstable: %q", got)
	}
}

// clockExtra: a value class with a factory that reads the clock beside a constructor.
const clockExtra = `
    public static final class Stamp {
        private final long millis;

        public Stamp(long millis) {
            this.millis = millis;
        }

        public static Stamp now() {
            return new Stamp(System.currentTimeMillis());
        }

        public long millis() {
            return millis;
        }
    }

    /** The day of the week the stamp falls on, 0 for Thursday (the epoch's). */
    public static int weekday(Stamp s) {
        if (s == null) {
            return -1;
        }
        return (int) Math.floorMod(s.millis() / 86_400_000L, 7L);
    }
`

// TestNoInputFromTheClock: a project class's factory that reads the clock (now()) never makes
// an argument: a test built on it would pass today and fail on another day. The constructor
// with a fixed value makes it instead.
func TestNoInputFromTheClock(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, clockExtra, "weekday")
	tests, err := a.InitialSuite(testCtx(t), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) == 0 {
		t.Fatal("no test")
	}
	made := false
	for _, tc := range tests {
		if strings.Contains(tc.Source, "now()") {
			t.Errorf("a test makes its input from the clock:\n%s", tc.Source)
		}
		made = made || strings.Contains(tc.Source, "Stamp(0L)") || strings.Contains(tc.Source, ".Stamp(")
	}
	if !made {
		t.Errorf("no test makes a Stamp through its constructor; the first:\n%s", tests[0].Source)
	}
}
