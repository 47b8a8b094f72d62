package schema

import (
	"math"

	"github.com/advertest/advertest-lsp/loop/mutants/opnames"
)

// DefaultBaseURL is llm.baseURL's default when OPENAI_BASE_URL is not set.
const DefaultBaseURL = "https://api.openai.com/v1"

// ClientOnly are the VS Code extension's own settings (how to start the server): they are in
// its package.json beside Table's, and never reach the server.
var ClientOnly = []string{"path", "logFile", "logLevel"}

// Table declares every setting of the server and the CLI, in the order the docs and the VS
// Code settings list them. Adding a setting is adding a row and a Values field (then `go
// generate ./settings/...` for package.json and docs/settings.md).
var Table = []Setting{
	{
		Name: "agents", Type: Enum, Default: "auto", Scope: Window,
		Choices: []Choice{
			{"auto", "The LLM agents when a model and an API key (or a loopback base URL) are configured; else the offline agents."},
			{"llm", "Always the LLM agents; a run fails when the LLM is not configured or cannot be reached."},
			{"offline", "The offline agents: rule-based mutants and search-based tests, no LLM."},
		},
		Description: "Which agents play the game.",
		field:       func(v *Values) any { return &v.Agents },
	},
	{
		Name: "llm.baseURL", Type: String, Default: DefaultBaseURL, Env: "OPENAI_BASE_URL", NonEmpty: true, Scope: Machine,
		Description: "The OpenAI-compatible endpoint. Empty: `OPENAI_BASE_URL`, else `" + DefaultBaseURL + "`. " +
			"Plain `http://` is refused for a host other than the loopback unless `llm.allowInsecureHTTP` is true. " +
			"A user setting (machine scope): a workspace cannot send your API key elsewhere.",
		field: func(v *Values) any { return &v.LLM.BaseURL },
	},
	{
		Name: "llm.model", Type: String, Default: "", Env: "ADVERTEST_MODEL", Scope: Window,
		Description: "The model name. Empty: `ADVERTEST_MODEL`.",
		field:       func(v *Values) any { return &v.LLM.Model },
	},
	{
		Name: "llm.apiKeyEnv", KeysProject: true, Type: String, Default: "OPENAI_API_KEY", NonEmpty: true, Scope: Machine,
		Description: "Name of the environment variable (of the server's process) that holds the API key. " +
			"The key itself is never a setting, never logged and never put in a prompt. A user setting (machine scope).",
		field: func(v *Values) any { return &v.LLM.APIKeyEnv },
	},
	{
		Name: "llm.temperature", Type: Number, Default: 0.0, Min: 0, Max: 2, Scope: Window,
		Description: "Sampling temperature of the LLM agents (always sent, 0 included).",
		field:       func(v *Values) any { return &v.LLM.Temperature },
	},
	{
		Name: "llm.maxConcurrency", Type: Integer, Default: 4, Min: 1, Max: 256, Scope: Window,
		Description: "At most this many LLM requests at a time.",
		field:       func(v *Values) any { return &v.LLM.MaxConcurrency },
	},
	{
		Name: "llm.requestTimeoutSeconds", Type: Number, Default: 120.0, Min: 1, Max: 3600, Scope: Window,
		Description: "Timeout of one LLM request (one HTTP attempt), in seconds.",
		field:       func(v *Values) any { return &v.LLM.RequestTimeoutSeconds },
	},
	{
		Name: "llm.maxReplyTokens", Type: Integer, Default: 4096, Min: 1, Max: 1_000_000, Scope: Window,
		Description: "The longest reply asked of the LLM, in tokens (sent as `max_tokens`).",
		field:       func(v *Values) any { return &v.LLM.MaxReplyTokens },
	},
	{
		Name: "llm.allowInsecureHTTP", Type: Boolean, Default: false, Scope: Machine,
		Description: "Allow a plain `http://` base URL for a host other than the loopback (the API key and your code then " +
			"cross the network unencrypted). A user setting (machine scope).",
		field: func(v *Values) any { return &v.LLM.AllowInsecureHTTP },
	},
	{
		Name: "llm.contextTokens", Type: Integer, Default: 8000, Min: 500, Max: 1_000_000, Scope: Window,
		Description: "How much of the file of the class under test a prompt may show, in tokens (counted as bytes / 4): the whole file " +
			"with its line numbers when it fits; else the bodies of the members the method does not reach are left out, keeping the " +
			"fields, the constructors, the method and every method it calls. The methods of other classes it calls fill what is left.",
		field: func(v *Values) any { return &v.LLM.ContextTokens },
	},
	{
		Name: "llm.pricing.inputPerMTok", Type: Number, Default: 0.0, Min: 0, Max: unbounded, Scope: Window,
		Description: "Price in USD per million prompt tokens (for the cost in the report and `budget.maxUSD`).",
		field:       func(v *Values) any { return &v.LLM.InputPerMTok },
	},
	{
		Name: "llm.pricing.outputPerMTok", Type: Number, Default: 0.0, Min: 0, Max: unbounded, Scope: Window,
		Description: "Price in USD per million completion tokens.",
		field:       func(v *Values) any { return &v.LLM.OutputPerMTok },
	},
	{
		Name: "budget.maxTokens", Type: Integer, Default: 0, DefaultNote: "no limit", Min: 0, Max: math.MaxInt32, Scope: Window,
		Description: "Stop a job's LLM calls after this many tokens, prompt and completion together. `0`: no limit.",
		field:       func(v *Values) any { return &v.MaxTokens },
	},
	{
		Name: "budget.maxUSD", Type: Number, Default: 0.0, DefaultNote: "no limit", Min: 0, Max: unbounded, Scope: Window,
		Description: "Stop a job's LLM calls after this cost in USD (needs `llm.pricing`). `0`: no limit.",
		field:       func(v *Values) any { return &v.MaxUSD },
	},
	{
		Name: "budget.methodRequests", Type: Integer, Default: 60, Min: 0, Max: math.MaxInt32, Scope: Window,
		Description: "Stop a method's game after this many LLM requests (its tests, repairs, mutants and the judge's). `0`: no limit. " +
			"The default lets the examples' games finish and stops a game that would run away; the report and the editor say when it stopped one.",
		field: func(v *Values) any { return &v.MethodRequests },
	},
	{
		Name: "budget.methodTokens", Type: Integer, Default: 200_000, Min: 0, Max: math.MaxInt32, Scope: Window,
		Description: "Stop a method's game once its LLM requests have used this many tokens, prompt and completion together. `0`: no limit.",
		field:       func(v *Values) any { return &v.MethodTokens },
	},
	{
		Name: "rounds", Type: Integer, Default: 5, Min: 1, Max: 99, Scope: Window,
		Description: "Agent actions after the initial moves, alternating T, M, …; T has the last move (an even value is raised by one).",
		field:       func(v *Values) any { return &v.Rounds },
	},
	{
		Name: "suite.minimal", Type: Enum, Default: "auto", Scope: Window,
		Choices: []Choice{
			{"auto", "With the LLM's agents; the offline agents' suites are written whole (they choose their tests for detection themselves: docs/fault-bench.md)."},
			{"on", "Always: before a suite is written, keep only the new tests needed to keep every kill and every covered line and branch."},
			{"off", "Never: every new test that passes is written."},
		},
		Description: "Whether a game writes a minimal suite: the new tests that kill no mutant and cover no line or branch of the method that the others do not are left out (listed in the report's `tests.leftOut`).",
		field:       func(v *Values) any { return &v.SuiteMinimal },
	},
	{
		Name: "repairAttempts", Type: Integer, Default: 10, Min: 0, Max: 100, Scope: Window,
		Description: "LLM repair rounds for a generated test that does not compile or run, after the deterministic rules.",
		field:       func(v *Values) any { return &v.RepairAttempts },
	},
	{
		Name: "mutantTimeout.factor", KeysProject: true, Type: Number, Default: 1.25, Min: 1, Max: 100, Scope: Window,
		Description: "The wall-clock backstop of a mutant's budget (sleeps, I/O, locks, loops outside the mutated class): a test's " +
			"run on a mutant times out after `factor` × the test's time on the original + `constantMs`.",
		field: func(v *Values) any { return &v.MutantTimeoutFactor },
	},
	{
		Name: "mutantTimeout.constantMs", KeysProject: true, Type: Integer, Default: 4000, Min: 1, Max: 600_000, Scope: Window,
		Description: "The constant part of a mutant's timeout, in milliseconds.",
		field:       func(v *Values) any { return &v.MutantTimeoutConstant },
	},
	{
		Name: "mutantTimeout.stepFactor", KeysProject: true, Type: Number, Default: 10.0, Min: 1, Max: 1000, Scope: Window,
		Description: "The deterministic part of a mutant's budget: a test's run on a mutant times out after `stepFactor` × the " +
			"steps (backward jumps and method entries in the mutated class) it counted on the original + `stepConstant` steps, " +
			"whatever the machine's load.",
		field: func(v *Values) any { return &v.StepFactor },
	},
	{
		Name: "mutantTimeout.stepConstant", KeysProject: true, Type: Integer, Default: 1_000, Min: 1, Max: 1e12, Scope: Window,
		Description: "The constant part of a mutant's step budget, in counted steps: what a mutant may add to a test that takes few steps on the original (the factor covers the rest). 1,000 steps of an endless loop cost well under a millisecond even in a fresh, interpreted mutant class; raise it when mutants that only run longer (a loop over more of a small input) come out `timeout`.",
		field:       func(v *Values) any { return &v.StepConstant },
	},
	{
		Name: "originalTestTimeoutMs", KeysProject: true, Type: Integer, Default: 60_000, Min: 1, Max: 3_600_000, Scope: Window,
		Description: "The time limit of one test on the original, in milliseconds: the baseline run, which measures the times and " +
			"steps the mutants' budgets are based on. The mutants' budgets (`mutantTimeout.*`) do not apply there: a test slower " +
			"than them on the original is slow, not failing; one past this limit is reported failing on the original and cannot kill mutants.",
		field: func(v *Values) any { return &v.OriginalTestTimeout },
	},
	{
		Name: "mutants.operators", Type: StringList, Default: []string{"default", "strong"}, NonEmpty: true, Scope: Window,
		Description: "The mutation operators the rule-based M and the analysis may use: group names (`default`, `strong`) and operator codes, " +
			"e.g. `[\"default\", \"ROR\"]` (`advertest mutate --list-operators` lists them). M's first move plays the selection's " +
			"`default` members, its later moves the whole selection on the suite's blind spots; `[\"default\"]` alone keeps to the cheap group.",
		Valid: validOperators,
		field: func(v *Values) any { return &v.Operators },
	},
	{
		Name: "workers", KeysProject: true, Type: Integer, Default: 0, DefaultNote: "one per core", Min: 0, Max: 64, Scope: Window,
		Description: "Warm JVM workers per module. `0`: one per CPU core.",
		field:       func(v *Values) any { return &v.Workers },
	},
	{
		Name: "worker.heapMB", KeysProject: true, Type: Integer, Default: 512, Min: 64, Max: 65536, Scope: Window,
		Description: "Heap of each worker JVM, in MiB (`-Xmx`).",
		field:       func(v *Values) any { return &v.WorkerHeapMB },
	},
	{
		Name: "worker.maxLeakedThreads", KeysProject: true, Type: Integer, Default: 32, Min: 1, Max: 10_000, Scope: Window,
		Description: "Live non-daemon threads that tests may leave behind in a worker before it is restarted.",
		field:       func(v *Values) any { return &v.MaxLeakedThreads },
	},
	{
		Name: "sandbox.mode", KeysProject: true, Type: Enum, Default: "auto", Scope: Machine,
		Choices: []Choice{
			{"auto", "Run generated tests in the sandbox when one is available; without one, `agents: auto` plays offline and LLM-written code does not run."},
			{"on", "Always the sandbox; a job fails when none is available."},
			{"off", "No sandbox: LLM-written tests run with your rights."},
		},
		Description: "Whether the tests run in a sandbox (bubblewrap). LLM-written code never runs unsandboxed unless this is `off`. " +
			"A user setting (machine scope): a workspace cannot turn the sandbox off.",
		field: func(v *Values) any { return &v.SandboxMode },
	},
	{
		Name: "sandbox.env", KeysProject: true, Type: StringList, Default: []string{}, DefaultNote: "none", EnvNames: true, Scope: Machine,
		Description: "Names of extra environment variables passed into the sandbox (the sandbox starts from an empty " +
			"environment). A user setting (machine scope).",
		field: func(v *Values) any { return &v.SandboxEnv },
	},
	{
		Name: "jobs.max", Type: Integer, Default: 2, Min: 1, Max: 64, Scope: Window,
		Description: "At most this many jobs (methods) at a time.",
		field:       func(v *Values) any { return &v.JobsMax },
	},
	{
		Name: "onSave", Type: Enum, Default: string(OnSaveAnalyze), Scope: Window,
		Choices: []Choice{
			{string(OnSaveAnalyze), "Re-run mutation analysis for the changed methods that had a previous run."},
			{string(OnSaveRound), "Run one incremental adversarial round for the changed methods."},
			{string(OnSaveOff), "Do nothing on save."},
		},
		Description: "What saving a file whose methods have a previous run does.",
		field:       func(v *Values) any { return &v.OnSave },
	},
	{
		Name: "onSaveDelayMs", Type: Integer, Default: 500, Min: 0, Max: 60_000, Scope: Window,
		Description: "Wait this long after a save before the on-save work starts, in milliseconds.",
		field:       func(v *Values) any { return &v.OnSaveDelay },
	},
	{
		Name: "maven.args", KeysProject: true, Type: StringList, Default: []string{}, DefaultNote: "none", Scope: MachineOverridable,
		Description: "Extra arguments for every Maven call, e.g. `[\"-o\", \"-s\", \"/etc/maven/settings-debian.xml\"]`.",
		field:       func(v *Values) any { return &v.MavenArgs },
	},
	{
		Name: "jacoco.agentPath", KeysProject: true, Type: String, Default: "", DefaultNote: "found", Scope: MachineOverridable,
		Description: "Path of `jacocoagent.jar`. Empty: found (Debian's `org.jacoco.agent.jar`, the local Maven repository).",
		field:       func(v *Values) any { return &v.JacocoAgent },
	},
}

// validOperators checks that every name of a mutants.operators value is an operator group or
// code of the registry (loop/mutants/opnames: its names without tree-sitter).
func validOperators(val any) string {
	if err := opnames.Check(val.([]string)); err != nil {
		return err.Error()
	}
	return ""
}
