package engine

import "testing"

// A runner whose type == cannot compare (a struct value holding a slice) is never the prepared
// schema's runner, and asking does not panic; pointer runners match only themselves.
func TestSameRunnerDoesNotPanicOnUncomparableRunners(t *testing.T) {
	type recording struct {
		Runner
		calls []string
	}
	type wrapped struct{ Runner }
	a, b := &wrapped{}, &wrapped{}
	cases := []struct {
		name string
		x, y Runner
		want bool
	}{
		{"the same pointer", a, a, true},
		{"two pointers", a, b, false},
		{"an uncomparable value and itself", recording{}, recording{}, false},
		{"an uncomparable value and a pointer", recording{}, a, false},
		{"nil and a pointer", nil, a, false},
	}
	for _, c := range cases {
		if got := sameRunner(c.x, c.y); got != c.want {
			t.Errorf("%s: sameRunner = %v; want %v", c.name, got, c.want)
		}
	}
	p := &PendingSchema{runner: recording{calls: []string{"x"}}}
	if p.fits(recording{calls: []string{"x"}}, Subject{}, Suite{}, nil) {
		t.Errorf("a pending schema fits an uncomparable runner")
	}
}
