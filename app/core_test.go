package app

import (
	"errors"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/loop/llm"
	"github.com/advertest/advertest-lsp/settings"
)

// warnings records the warnings of a use case.
type warnings struct {
	NoEvents
	got []string
}

func (w *warnings) Warning(x Warning) { w.got = append(w.got, x.Message) }

// TestSandboxIsDecidedOncePerPolicy: the probe runs once for every decision of a policy, the
// warning of an uncontained decision is given once, and mode on without a sandbox fails.
func TestSandboxIsDecidedOncePerPolicy(t *testing.T) {
	probes := 0
	c := New(Options{Probe: func() sandbox.Availability {
		probes++
		return sandbox.Availability{Reason: "no bwrap here"}
	}})
	s := settings.Default(noEnv)
	ev := &warnings{}
	for range 3 {
		st, err := c.Sandbox(s, ev)
		if err != nil || st.Kind != sandbox.KindNone || st.Reason != "no bwrap here" {
			t.Fatalf("Sandbox = %+v, %v", st, err)
		}
	}
	if probes != 1 || len(ev.got) != 1 || !strings.Contains(ev.got[0], "no sandbox (no bwrap here)") {
		t.Errorf("%d probes, warnings %q; want 1 and one warning", probes, ev.got)
	}
	s.SandboxMode = "on"
	if _, err := c.Sandbox(s, ev); !errors.Is(err, sandbox.ErrUnavailable) {
		t.Errorf("mode on without a sandbox: %v", err)
	}
	s.SandboxMode = "sometimes"
	var se *SettingError
	if _, err := c.Sandbox(s, ev); !errors.As(err, &se) || se.Setting != "sandbox.mode" {
		t.Errorf("a bad mode: %v", err)
	}
}

// TestBudgetAccountPerSession: every job draws on one account until the budget settings
// change.
func TestBudgetAccountPerSession(t *testing.T) {
	c := New(Options{})
	a := c.budgetAccount(llm.Budget{MaxTokens: 100})
	if b := c.budgetAccount(llm.Budget{MaxTokens: 100}); b != a {
		t.Error("a second job got an account of its own")
	}
	if b := c.budgetAccount(llm.Budget{MaxTokens: 200}); b == a || b.Limits().MaxTokens != 200 {
		t.Error("a new budget kept the old account")
	}
}

// TestCheckNamesTheSetting: a selection of operators that does not exist is refused with the
// setting's name.
func TestCheckNamesTheSetting(t *testing.T) {
	s := settings.Default(noEnv)
	s.Operators = []string{"NOPE"}
	var se *SettingError
	if err := Check(s); !errors.As(err, &se) || se.Setting != "mutants.operators" || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("Check = %v", err)
	}
	if err := Check(settings.Default(noEnv)); err != nil {
		t.Errorf("the defaults: %v", err)
	}
}
