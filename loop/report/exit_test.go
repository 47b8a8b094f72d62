package report

import "testing"

func TestExitStatusPrecedence(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name string
		g    Gate
		want int
	}{
		{"all good", Gate{Score: f(0.9), FailUnder: f(80)}, ExitOK},
		{"no threshold", Gate{Score: f(0.1)}, ExitOK},
		{"below", Gate{Score: f(0.625), FailUnder: f(80)}, ExitBelowThreshold},
		{"failed beats below", Gate{Failed: true, Score: f(0.1), FailUnder: f(80)}, ExitFailed},
		{"interrupted beats failed and below", Gate{Interrupted: true, Failed: true, Score: f(0.1), FailUnder: f(80)}, ExitInterrupted},
		{"interrupted beats below", Gate{Interrupted: true, Score: f(0.1), FailUnder: f(80)}, ExitInterrupted},
		{"failed alone", Gate{Failed: true}, ExitFailed},
		{"equal is not below", Gate{Score: f(0.8), FailUnder: f(80)}, ExitOK},
		{"57 of 100 meets 57", Gate{Score: f(57.0 / 100), FailUnder: f(57)}, ExitOK},
		{"just below", Gate{Score: f(0.7999), FailUnder: f(80)}, ExitBelowThreshold},
		{"no valid mutant never fails the gate", Gate{FailUnder: f(80)}, ExitOK},
		{"zero threshold", Gate{Score: f(0), FailUnder: f(0)}, ExitOK},
	}
	for _, c := range cases {
		if got := c.g.ExitStatus(); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}

func TestParseFailUnder(t *testing.T) {
	for s, want := range map[string]float64{"80": 80, "62.5": 62.5, "0": 0, "100": 100, "75%": 75} {
		if got, err := ParseFailUnder(s); err != nil || got != want {
			t.Errorf("ParseFailUnder(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "abc", "-1", "101", "NaN", "0.8x"} {
		if _, err := ParseFailUnder(s); err == nil {
			t.Errorf("ParseFailUnder(%q): no error", s)
		}
	}
}
