package settings

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/advertest/advertest-lsp/loop"
)

// OnSave says what a save of a Java file does for its methods with state.
type OnSave string

const (
	// OnSaveAnalyze re-runs mutation testing of the method's mutants with its suite.
	OnSaveAnalyze OnSave = "analyze"
	// OnSaveRound plays one more T and M exchange.
	OnSaveRound OnSave = "round"
	// OnSaveOff does nothing.
	OnSaveOff OnSave = "off"
)

// LLM is the llm.* group.
type LLM struct {
	BaseURL               string
	Model                 string
	APIKeyEnv             string
	Temperature           float64
	MaxConcurrency        int
	RequestTimeoutSeconds float64
	InputPerMTok          float64
	OutputPerMTok         float64
}

// Settings are the server's settings; Default gives DESIGN's defaults.
type Settings struct {
	// Agents is auto, llm or offline.
	Agents string
	LLM    LLM
	// MaxTokens and MaxUSD are budget.maxTokens and budget.maxUSD; 0 means no limit.
	MaxTokens      int
	MaxUSD         float64
	Rounds         int
	RepairAttempts int
	// MutantTimeoutFactor and MutantTimeoutConstant are mutantTimeout.factor and .constantMs.
	MutantTimeoutFactor   float64
	MutantTimeoutConstant time.Duration
	// Workers is the JVM pool's size per module.
	Workers int
	// JobsMax is jobs.max: how many jobs run at once.
	JobsMax     int
	OnSave      OnSave
	OnSaveDelay time.Duration
	MavenArgs   []string
	JacocoAgent string
}

// Default returns DESIGN's defaults, reading the CLI's environment variables through getenv
// (nil: os.Getenv).
func Default(getenv func(string) string) Settings {
	if getenv == nil {
		getenv = os.Getenv
	}
	s := Settings{
		Agents: "auto",
		LLM: LLM{
			BaseURL:               getenv("OPENAI_BASE_URL"),
			Model:                 getenv("ADVERTEST_MODEL"),
			APIKeyEnv:             "OPENAI_API_KEY",
			MaxConcurrency:        4,
			RequestTimeoutSeconds: 120,
		},
		Rounds:                5,
		RepairAttempts:        10,
		MutantTimeoutFactor:   1.25,
		MutantTimeoutConstant: 4 * time.Second,
		Workers:               runtime.NumCPU(),
		JobsMax:               2,
		OnSave:                OnSaveAnalyze,
		OnSaveDelay:           500 * time.Millisecond,
	}
	if s.LLM.BaseURL == "" {
		s.LLM.BaseURL = "https://api.openai.com/v1"
	}
	return s
}

// LoopConfig is the part of the settings a run needs.
func (s Settings) LoopConfig() loop.Config {
	c := loop.DefaultConfig()
	c.Rounds = s.Rounds
	c.MutantTimeoutFactor = s.MutantTimeoutFactor
	c.MutantTimeoutConstant = s.MutantTimeoutConstant
	c.Workers = s.Workers
	c.MavenArgs = append([]string(nil), s.MavenArgs...)
	c.JacocoAgentPath = s.JacocoAgent
	return c
}

// ProjectKey says which settings a warm project depends on: a change of them needs a new one.
func (s Settings) ProjectKey() string {
	return fmt.Sprintf("%d|%g|%s|%s|%s", s.Workers, s.MutantTimeoutFactor, s.MutantTimeoutConstant, strings.Join(s.MavenArgs, "\x00"), s.JacocoAgent)
}

// Problem is one bad setting.
type Problem struct {
	// Path is the dotted name ("mutantTimeout.factor").
	Path    string
	Message string
}

func (p Problem) String() string { return fmt.Sprintf("setting `%s`: %s", p.Path, p.Message) }

// Parse overlays raw (the `advertest` object; null or empty keeps base) on base. Bad values
// keep base's value and are reported; unknown settings are reported and ignored.
func Parse(base Settings, raw json.RawMessage) (Settings, []Problem) {
	s := base
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "" || trimmed == "null" {
		return s, nil
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return s, []Problem{{Path: "advertest", Message: fmt.Sprintf("want a JSON object, got %s", describe(raw))}}
	}
	p := &parser{s: &s}
	p.object("", obj)
	sort.SliceStable(p.problems, func(i, j int) bool { return p.problems[i].Path < p.problems[j].Path })
	return s, p.problems
}

type parser struct {
	s        *Settings
	problems []Problem
}

func (p *parser) bad(path, format string, args ...any) {
	p.problems = append(p.problems, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// fields maps each leaf's dotted path to its setter; a group ("llm") is an object of leaves.
func (p *parser) fields() map[string]func(path string, v any) {
	s := p.s
	return map[string]func(string, any){
		"agents": func(path string, v any) {
			p.enum(path, v, []string{"auto", "llm", "offline"}, &s.Agents)
		},
		"llm.baseURL":   func(path string, v any) { p.str(path, v, &s.LLM.BaseURL, false) },
		"llm.model":     func(path string, v any) { p.str(path, v, &s.LLM.Model, true) },
		"llm.apiKeyEnv": func(path string, v any) { p.str(path, v, &s.LLM.APIKeyEnv, false) },
		"llm.temperature": func(path string, v any) {
			p.float(path, v, 0, 2, &s.LLM.Temperature)
		},
		"llm.maxConcurrency":        func(path string, v any) { p.int(path, v, 1, 256, &s.LLM.MaxConcurrency) },
		"llm.requestTimeoutSeconds": func(path string, v any) { p.float(path, v, 1, 3600, &s.LLM.RequestTimeoutSeconds) },
		"llm.pricing.inputPerMTok":  func(path string, v any) { p.float(path, v, 0, math.MaxFloat64, &s.LLM.InputPerMTok) },
		"llm.pricing.outputPerMTok": func(path string, v any) { p.float(path, v, 0, math.MaxFloat64, &s.LLM.OutputPerMTok) },
		"budget.maxTokens":          func(path string, v any) { p.int(path, v, 0, math.MaxInt32, &s.MaxTokens) },
		"budget.maxUSD":             func(path string, v any) { p.float(path, v, 0, math.MaxFloat64, &s.MaxUSD) },
		"rounds":                    func(path string, v any) { p.int(path, v, 1, 99, &s.Rounds) },
		"repairAttempts":            func(path string, v any) { p.int(path, v, 0, 100, &s.RepairAttempts) },
		"mutantTimeout.factor":      func(path string, v any) { p.float(path, v, 1, 100, &s.MutantTimeoutFactor) },
		"mutantTimeout.constantMs": func(path string, v any) {
			ms := int(s.MutantTimeoutConstant / time.Millisecond)
			if p.int(path, v, 1, 600_000, &ms) {
				s.MutantTimeoutConstant = time.Duration(ms) * time.Millisecond
			}
		},
		"workers":  func(path string, v any) { p.int(path, v, 1, 64, &s.Workers) },
		"jobs.max": func(path string, v any) { p.int(path, v, 1, 64, &s.JobsMax) },
		"onSave": func(path string, v any) {
			mode := string(s.OnSave)
			if p.enum(path, v, []string{"analyze", "round", "off"}, &mode) {
				s.OnSave = OnSave(mode)
			}
		},
		"onSaveDelayMs": func(path string, v any) {
			ms := int(s.OnSaveDelay / time.Millisecond)
			if p.int(path, v, 0, 60_000, &ms) {
				s.OnSaveDelay = time.Duration(ms) * time.Millisecond
			}
		},
		"maven.args": func(path string, v any) {
			list, ok := v.([]any)
			if !ok {
				p.bad(path, "want a list of strings, got %s; using %q", describeValue(v), s.MavenArgs)
				return
			}
			args := make([]string, 0, len(list))
			for i, e := range list {
				str, ok := e.(string)
				if !ok {
					p.bad(path, "entry %d: want a string, got %s; using %q", i, describeValue(e), s.MavenArgs)
					return
				}
				args = append(args, str)
			}
			s.MavenArgs = args
		},
		"jacoco.agentPath": func(path string, v any) { p.str(path, v, &s.JacocoAgent, true) },
	}
}

func (p *parser) object(prefix string, obj map[string]any) {
	fields := p.fields()
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := k
		if prefix != "" {
			path = prefix + "." + k
		}
		v := obj[k]
		if set, ok := fields[path]; ok {
			if v == nil {
				continue // null: keep the default
			}
			set(path, v)
			continue
		}
		if isGroup(fields, path) {
			if sub, ok := v.(map[string]any); ok {
				p.object(path, sub)
			} else if v != nil {
				p.bad(path, "want an object, got %s", describeValue(v))
			}
			continue
		}
		p.bad(path, "unknown setting (ignored)")
	}
}

func isGroup(fields map[string]func(string, any), path string) bool {
	for k := range fields {
		if strings.HasPrefix(k, path+".") {
			return true
		}
	}
	return false
}

func (p *parser) enum(path string, v any, allowed []string, dst *string) bool {
	str, ok := v.(string)
	if ok {
		for _, a := range allowed {
			if str == a {
				*dst = str
				return true
			}
		}
	}
	p.bad(path, "want one of %s, got %s; using %q", strings.Join(allowed, ", "), describeValue(v), *dst)
	return false
}

func (p *parser) str(path string, v any, dst *string, emptyOK bool) bool {
	str, ok := v.(string)
	if !ok || (!emptyOK && strings.TrimSpace(str) == "") {
		p.bad(path, "want a non-empty string, got %s; using %q", describeValue(v), *dst)
		return false
	}
	*dst = str
	return true
}

func (p *parser) int(path string, v any, lo, hi int, dst *int) bool {
	n, ok := v.(float64)
	if !ok || n != math.Trunc(n) || n < float64(lo) || n > float64(hi) {
		p.bad(path, "want an integer from %d to %d, got %s; using %d", lo, hi, describeValue(v), *dst)
		return false
	}
	*dst = int(n)
	return true
}

func (p *parser) float(path string, v any, lo, hi float64, dst *float64) bool {
	n, ok := v.(float64)
	if !ok || n < lo || n > hi || math.IsNaN(n) {
		rng := fmt.Sprintf("from %g to %g", lo, hi)
		if hi == math.MaxFloat64 {
			rng = fmt.Sprintf("of at least %g", lo)
		}
		p.bad(path, "want a number %s, got %s; using %g", rng, describeValue(v), *dst)
		return false
	}
	*dst = n
	return true
}

func describeValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return describe(b)
}

func describe(raw []byte) string {
	const limit = 60
	s := strings.TrimSpace(string(raw))
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return s
}
