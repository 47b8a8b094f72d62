package schema

import (
	"fmt"
	"os"
	"time"
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

// Values holds one value of every setting in Table, typed; Defaults gives the defaults. Each
// field's comment names its setting; Table says the rest.
type Values struct {
	// Agents is agents: auto, llm or offline.
	Agents string
	LLM    LLM
	// MaxTokens and MaxUSD are budget.maxTokens and budget.maxUSD; 0 means no limit.
	MaxTokens int
	MaxUSD    float64
	// MethodRequests and MethodTokens are budget.methodRequests and budget.methodTokens: one
	// method's LLM requests and tokens; 0 means no limit.
	MethodRequests int
	MethodTokens   int
	// SuiteMinimal is suite.minimal: auto, on or off.
	SuiteMinimal string
	// Rounds is rounds; RepairAttempts is repairAttempts.
	Rounds         int
	RepairAttempts int
	// MutantTimeoutFactor and MutantTimeoutConstant are mutantTimeout.factor and .constantMs.
	MutantTimeoutFactor   float64
	MutantTimeoutConstant time.Duration
	// StepFactor and StepConstant are mutantTimeout.stepFactor and .stepConstant: the work
	// budget of a test on a mutant in counted loop steps.
	StepFactor   float64
	StepConstant int64
	// OriginalTestTimeout is originalTestTimeoutMs: the limit of one test on the original.
	OriginalTestTimeout time.Duration
	// Operators is mutants.operators: group names and operator codes.
	Operators []string
	// Workers is workers: the JVM pool's size per module (0: one per core).
	Workers int
	// WorkerHeapMB and MaxLeakedThreads are worker.heapMB and worker.maxLeakedThreads.
	WorkerHeapMB     int
	MaxLeakedThreads int
	// SandboxMode and SandboxEnv are sandbox.mode and sandbox.env.
	SandboxMode string
	SandboxEnv  []string
	// JobsMax is jobs.max: how many jobs run at once.
	JobsMax int
	// OnSave and OnSaveDelay are onSave and onSaveDelayMs.
	OnSave      OnSave
	OnSaveDelay time.Duration
	// MavenArgs is maven.args; JacocoAgent is jacoco.agentPath ("": found).
	MavenArgs   []string
	JacocoAgent string
}

// LLM is the llm.* group.
type LLM struct {
	BaseURL               string
	Model                 string
	APIKeyEnv             string
	Temperature           float64
	MaxConcurrency        int
	RequestTimeoutSeconds float64
	MaxReplyTokens        int
	ContextTokens         int
	AllowInsecureHTTP     bool
	InputPerMTok          float64
	OutputPerMTok         float64
}

// Defaults returns every setting's default, reading the environment variables that some
// defaults come from (Setting.Env) through getenv (nil: os.Getenv).
func Defaults(getenv func(string) string) Values {
	if getenv == nil {
		getenv = os.Getenv
	}
	var v Values
	for _, s := range Table {
		val, msg := s.check(jsonForm(s.Default))
		if msg != "" {
			// Table is wrong, not the user: TestDefaultsAreValid keeps this from shipping.
			panic(fmt.Sprintf("settings table: the default of %s: %s", s.Name, msg))
		}
		if s.Env != "" {
			if e := getenv(s.Env); e != "" {
				val = e
			}
		}
		s.store(&v, val)
	}
	return v
}

// jsonForm turns a default as Table writes it (int, []string) into what encoding/json
// decodes (float64, []any), so that defaults pass the user's checks.
func jsonForm(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case []string:
		list := make([]any, len(x))
		for i, e := range x {
			list[i] = e
		}
		return list
	}
	return v
}

// store puts val (the form check returns: bool, int64, float64, string, []string) into the
// field s names.
func (s *Setting) store(v *Values, val any) {
	switch p := s.field(v).(type) {
	case *bool:
		*p = val.(bool)
	case *int:
		*p = int(val.(int64))
	case *int64:
		*p = val.(int64)
	case *time.Duration: // a ...Ms setting
		*p = time.Duration(val.(int64)) * time.Millisecond
	case *float64:
		*p = val.(float64)
	case *string:
		*p = val.(string)
	case *OnSave:
		*p = OnSave(val.(string))
	case *[]string:
		*p = append([]string{}, val.([]string)...)
	default:
		panic(fmt.Sprintf("settings table: %s has a field of type %T", s.Name, p))
	}
}

// load is the field's value in the form check returns.
func (s *Setting) load(v *Values) any {
	switch p := s.field(v).(type) {
	case *bool:
		return *p
	case *int:
		return int64(*p)
	case *int64:
		return *p
	case *time.Duration:
		return int64(*p / time.Millisecond)
	case *float64:
		return *p
	case *string:
		return *p
	case *OnSave:
		return string(*p)
	case *[]string:
		return append([]string{}, *p...)
	}
	panic(fmt.Sprintf("settings table: %s has a field of type %T", s.Name, s.field(v)))
}

// Get returns the named setting's value in v as JSON would carry it (bool, int64, float64,
// string or []string), and false for an unknown name.
func (v Values) Get(name string) (any, bool) {
	s := Lookup(name)
	if s == nil {
		return nil, false
	}
	return s.load(&v), true
}
