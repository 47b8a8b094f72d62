package sandbox

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func missing() Availability {
	return Availability{Reason: "bwrap is not installed (" + installHint + ")"}
}

func present() Availability {
	return Availability{OK: true, Reason: "bubblewrap 0.8.0 (/usr/bin/bwrap)"}
}

func TestDecide(t *testing.T) {
	probed := 0
	counting := func(a Availability) func() Availability {
		return func() Availability { probed++; return a }
	}
	tests := []struct {
		name    string
		mode    Mode
		probe   Availability
		want    Status
		wantErr error
	}{
		{"auto with bwrap", ModeAuto, present(), Status{ModeAuto, KindBwrap, present().Reason}, nil},
		{"empty mode is auto", "", present(), Status{ModeAuto, KindBwrap, present().Reason}, nil},
		{"auto without bwrap", ModeAuto, missing(), Status{ModeAuto, KindNone, missing().Reason}, nil},
		{"on with bwrap", ModeOn, present(), Status{ModeOn, KindBwrap, present().Reason}, nil},
		{"on without bwrap", ModeOn, missing(), Status{ModeOn, KindNone, missing().Reason}, ErrUnavailable},
		{"off", ModeOff, present(), Status{ModeOff, KindNone, "sandbox.mode is off"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			probed = 0
			got, err := Policy{Mode: tc.mode}.Decide(counting(tc.probe))
			if !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if tc.mode == ModeOff && probed != 0 {
				t.Errorf("mode off probed bwrap")
			}
			if err != nil && !strings.Contains(err.Error(), "apt-get install bubblewrap") {
				t.Errorf("the error does not name the fix: %v", err)
			}
		})
	}
	if _, err := (Policy{Mode: "sometimes"}).Decide(counting(present())); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": ModeAuto, "auto": ModeAuto, " ON ": ModeOn, "off": ModeOff} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseMode("yes"); err == nil || !strings.Contains(err.Error(), "auto, on or off") {
		t.Errorf("ParseMode(yes): %v", err)
	}
}

// TestLLMCodeGate: LLM-written code runs only inside the sandbox, or when the user turned it off.
func TestLLMCodeGate(t *testing.T) {
	none, _ := Policy{Mode: ModeAuto}.Decide(missing)
	err := none.AllowLLMCode()
	if !errors.Is(err, ErrUnsandboxedLLM) {
		t.Fatalf("auto without a sandbox allowed LLM code: %v", err)
	}
	for _, fix := range []string{"bwrap is not installed", "bubblewrap", "sandbox.mode to off", "agents: offline"} {
		if !strings.Contains(err.Error(), fix) {
			t.Errorf("the error does not say %q: %v", fix, err)
		}
	}
	if w := none.Warning(); !strings.Contains(w, "bwrap is not installed") || !strings.Contains(w, "LLM agents are off") {
		t.Errorf("warning: %q", w)
	}
	off, _ := Policy{Mode: ModeOff}.Decide(present)
	if err := off.AllowLLMCode(); err != nil {
		t.Errorf("mode off refused LLM code: %v", err)
	}
	if w := off.Warning(); !strings.Contains(w, "LLM-written ones included") {
		t.Errorf("mode off warning: %q", w)
	}
	on, _ := Policy{Mode: ModeAuto}.Decide(present)
	if err := on.AllowLLMCode(); err != nil || on.Warning() != "" {
		t.Errorf("inside the sandbox: %v, warning %q", err, on.Warning())
	}
}

func TestStatusJSON(t *testing.T) {
	b, err := json.Marshal(Status{Mode: ModeAuto, Kind: KindNone, Reason: "not Linux (darwin)"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"mode":"auto","kind":"none","reason":"not Linux (darwin)"}`; string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
}

func TestRefusalReason(t *testing.T) {
	got := refusal(errors.New("exit status 1"), "bwrap: setting up uid map: Permission denied\n")
	if !strings.HasPrefix(got, "user namespaces are refused: bwrap: setting up uid map: Permission denied") {
		t.Errorf("uid map refusal: %q", got)
	}
	got = refusal(errors.New("exit status 1"), "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.")
	if !strings.HasPrefix(got, "user namespaces are refused") {
		t.Errorf("namespace refusal: %q", got)
	}
	if got := refusal(errors.New("exit status 1"), "bwrap: Can't mount proc on /newroot/proc: Device or resource busy"); !strings.HasPrefix(got, "bwrap cannot start a sandbox: bwrap: Can't mount proc") {
		t.Errorf("other failure: %q", got)
	}
}

func TestProbeMissingBwrap(t *testing.T) {
	a := probeBwrap("advertest-no-such-bwrap")
	if a.OK || !strings.Contains(a.Reason, "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap") {
		t.Fatalf("got %+v", a)
	}
}

func TestEnviron(t *testing.T) {
	p := Policy{APIKeyEnv: "MY_KEY", Env: []string{"EXTRA", "MY_KEY"}}
	got := p.Environ([]string{"PATH=/usr/bin", "HOME=/root", "MY_KEY=secret", "OPENAI_API_KEY=other",
		"LC_ALL=C", "LANG=C.UTF-8", "TZ=UTC", "JAVA_HOME=/jdk", "EXTRA=1", "EXTRA=2", "AWS_SECRET_ACCESS_KEY=x", "LCX=no"})
	want := []string{"PATH=/usr/bin", "LC_ALL=C", "LANG=C.UTF-8", "TZ=UTC", "JAVA_HOME=/jdk", "EXTRA=2"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got := (Policy{}).Environ([]string{"OPENAI_API_KEY=k", "PATH=/bin"}); !slices.Equal(got, []string{"PATH=/bin"}) {
		t.Errorf("default key name: %v", got)
	}
}

// TestToolEnv: git and javac get the workers' allowlist and HOME, never the API key variable.
func TestToolEnv(t *testing.T) {
	in := []string{"PATH=/bin", "OPENAI_API_KEY=k", "MY_KEY=m", "HOME=/home/u", "EXTRA=e", "OTHER=o"}
	if got := (Policy{}).ToolEnv(in); !slices.Equal(got, []string{"PATH=/bin", "HOME=/home/u"}) {
		t.Errorf("default policy: %v", got)
	}
	if got := (Policy{APIKeyEnv: "MY_KEY", Env: []string{"EXTRA", "MY_KEY"}}).ToolEnv(in); !slices.Equal(got, []string{"PATH=/bin", "EXTRA=e", "HOME=/home/u"}) {
		t.Errorf("sandbox.env and llm.apiKeyEnv: %v", got)
	}
}

func TestBuildEnv(t *testing.T) {
	in := []string{"PATH=/bin", "OPENAI_API_KEY=k", "MY_KEY=m", "HOME=/root"}
	if got := BuildEnv(in, ""); !slices.Equal(got, []string{"PATH=/bin", "MY_KEY=m", "HOME=/root"}) {
		t.Errorf("default name: %v", got)
	}
	if got := BuildEnv(in, "MY_KEY"); !slices.Equal(got, []string{"PATH=/bin", "OPENAI_API_KEY=k", "HOME=/root"}) {
		t.Errorf("configured name: %v", got)
	}
}

// TestApplyWithoutSandbox: kind none leaves the command alone but its environment (filtered)
// and its working directory (the scratch folder).
func TestApplyWithoutSandbox(t *testing.T) {
	scratch := filepath.Join(t.TempDir(), "scratch")
	cmd := exec.Command("java", "-version")
	cmd.Env = []string{"PATH=/usr/bin", "HOME=/home/u", "OPENAI_API_KEY=k", "CANARY=c"}
	path, args := cmd.Path, slices.Clone(cmd.Args)
	s := Spec{Status: Status{Mode: ModeOff, Kind: KindNone}, Scratch: scratch}
	if err := s.Apply(cmd); err != nil {
		t.Fatal(err)
	}
	if cmd.Path != path || !slices.Equal(cmd.Args, args) {
		t.Errorf("the command changed: %s %v", cmd.Path, cmd.Args)
	}
	if !slices.Equal(cmd.Env, []string{"PATH=/usr/bin", "HOME=/home/u"}) {
		t.Errorf("env %v", cmd.Env)
	}
	if cmd.Dir != scratch || !fileExists(scratch) {
		t.Errorf("dir %q (exists %v)", cmd.Dir, fileExists(scratch))
	}
}
