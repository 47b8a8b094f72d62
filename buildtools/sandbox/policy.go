package sandbox

import (
	"errors"
	"fmt"
	"strings"
)

// Mode is the setting sandbox.mode.
type Mode string

const (
	// ModeAuto sandboxes wherever it can and says once what is not contained where it cannot.
	ModeAuto Mode = "auto"
	// ModeOn fails when the sandbox cannot start.
	ModeOn Mode = "on"
	// ModeOff never sandboxes; LLM-written code then runs with the user's rights.
	ModeOff Mode = "off"
)

// ParseMode reads a sandbox.mode value; "" is auto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeOn, ModeOff:
		return m, nil
	}
	return "", fmt.Errorf("sandbox.mode %q: want auto, on or off", s)
}

// Kind says what contains the worker JVMs.
type Kind string

const (
	KindBwrap Kind = "bwrap" // bubblewrap namespaces, see docs/sandbox.md
	KindNone  Kind = "none"  // nothing: the JVMs run with the user's rights
)

// DefaultAPIKeyEnv is the default of the setting llm.apiKeyEnv.
const DefaultAPIKeyEnv = "OPENAI_API_KEY"

// DefaultTmpSize bounds each sandbox's private /tmp (and /dev/shm) when Policy.TmpSize is 0.
const DefaultTmpSize int64 = 256 << 20

// Policy is the user's sandbox settings.
type Policy struct {
	Mode Mode // sandbox.mode; "" is auto
	// Env names the variables passed into the sandbox besides PATH, JAVA_HOME, LANG, LC_*
	// and TZ (the setting sandbox.env). The API key variable is never passed, even when named.
	Env []string
	// APIKeyEnv names the variable that holds the LLM's API key (the setting llm.apiKeyEnv;
	// "" is OPENAI_API_KEY). No child process sees it, Maven and Gradle included.
	APIKeyEnv string
	// TmpSize bounds the private /tmp in bytes; 0 is DefaultTmpSize.
	TmpSize int64
}

func (p Policy) apiKeyEnv() string {
	if p.APIKeyEnv == "" {
		return DefaultAPIKeyEnv
	}
	return p.APIKeyEnv
}

func (p Policy) tmpSize() int64 {
	if p.TmpSize <= 0 {
		return DefaultTmpSize
	}
	return p.TmpSize
}

// Status is the decision the report (field "sandbox") and the server's start log carry.
type Status struct {
	Mode Mode `json:"mode"`
	Kind Kind `json:"kind"`
	// Reason says why nothing contains the JVMs when Kind is none; with bwrap it names the bwrap
	// that runs and anything it cannot bound on this system.
	Reason string `json:"reason"`
}

// Contained reports whether worker JVMs run inside a sandbox.
func (s Status) Contained() bool { return s.Kind == KindBwrap }

func (s Status) String() string {
	if s.Reason == "" {
		return fmt.Sprintf("sandbox %s (mode %s)", s.Kind, s.Mode)
	}
	return fmt.Sprintf("sandbox %s (mode %s): %s", s.Kind, s.Mode, s.Reason)
}

// Warning is the one message to show when the JVMs are not contained ("" when they are).
func (s Status) Warning() string {
	if s.Contained() {
		return ""
	}
	if s.Mode == ModeOff {
		return "sandbox.mode is off: the project's tests, the mutants and every generated test " +
			"(LLM-written ones included) run with your user's rights: they can read and write your files " +
			"and reach the network"
	}
	return fmt.Sprintf("no sandbox (%s): the project's tests, the mutants and the offline agents' tests "+
		"run with your user's rights: they can read and write your files and reach the network. "+
		"LLM agents are off until the sandbox works (see docs/sandbox.md), or sandbox.mode is off", s.Reason)
}

// ErrUnsandboxedLLM is matched (errors.Is) by the error of Status.AllowLLMCode.
var ErrUnsandboxedLLM = errors.New("LLM-written code would run without a sandbox")

// AllowLLMCode returns nil when LLM-written code may run: inside the sandbox, or anywhere when
// the user turned the sandbox off. Otherwise the error says why and names the fixes.
func (s Status) AllowLLMCode() error {
	if s.Contained() || s.Mode == ModeOff {
		return nil
	}
	return fmt.Errorf("%w: %s; install bubblewrap and allow user namespaces (see docs/sandbox.md), "+
		"use the offline agents (agents: offline), or set sandbox.mode to off to run LLM-written code "+
		"with your user's rights", ErrUnsandboxedLLM, s.Reason)
}

// ErrUnavailable is matched (errors.Is) by the error Decide returns for mode on.
var ErrUnavailable = errors.New("the sandbox cannot start")

// Decide turns the policy and what probe finds into the status every worker of this process
// runs under. Mode on fails when the sandbox cannot start; auto then decides "none" with the
// probe's reason; off never probes. probe nil is Probe.
func (p Policy) Decide(probe func() Availability) (Status, error) {
	mode := p.Mode
	if mode == "" {
		mode = ModeAuto
	}
	if mode == ModeOff {
		return Status{Mode: mode, Kind: KindNone, Reason: "sandbox.mode is off"}, nil
	}
	if mode != ModeAuto && mode != ModeOn {
		return Status{}, fmt.Errorf("sandbox.mode %q: want auto, on or off", mode)
	}
	if probe == nil {
		probe = Probe
	}
	a := probe()
	if !a.OK {
		if mode == ModeOn {
			return Status{Mode: mode, Kind: KindNone, Reason: a.Reason},
				fmt.Errorf("sandbox.mode is on but %w: %s", ErrUnavailable, a.Reason)
		}
		return Status{Mode: mode, Kind: KindNone, Reason: a.Reason}, nil
	}
	return Status{Mode: mode, Kind: KindBwrap, Reason: a.Reason}, nil
}
