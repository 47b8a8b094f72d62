package settings

import (
	"encoding/json"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm"
	"github.com/advertest/advertest-lsp/settings/schema"
)

// OnSave says what a save of a Java file does for its methods with state.
type OnSave = schema.OnSave

const (
	// OnSaveAnalyze re-runs mutation testing of the method's mutants with its suite.
	OnSaveAnalyze = schema.OnSaveAnalyze
	// OnSaveRound plays one more T and M exchange.
	OnSaveRound = schema.OnSaveRound
	// OnSaveOff does nothing.
	OnSaveOff = schema.OnSaveOff
)

// LLM is the llm.* group.
type LLM = schema.LLM

// Problem is one bad setting.
type Problem = schema.Problem

// Settings are the server's settings: one typed value per setting of the table.
type Settings struct {
	schema.Values
}

// Default returns the table's defaults, reading the environment variables some defaults come
// from (OPENAI_BASE_URL, ADVERTEST_MODEL) through getenv (nil: os.Getenv).
func Default(getenv func(string) string) Settings {
	return Settings{schema.Defaults(getenv)}
}

// Parse overlays raw (the `advertest` object; null or empty keeps base) on base. Bad values
// keep base's value and are reported; unknown settings are reported and ignored.
func Parse(base Settings, raw json.RawMessage) (Settings, []Problem) {
	v, problems := schema.Decode(base.Values, raw)
	return Settings{v}, problems
}

// LoopConfig is the part of the settings a run needs.
func (s Settings) LoopConfig() loop.Config { return loop.ConfigFrom(s.Values) }

// LLMConfig is the LLM client's configuration.
func (s Settings) LLMConfig() llm.Config { return llm.ConfigFrom(s.Values) }

// ProjectKey says which settings a warm project depends on: the values of those the settings
// table marks KeysProject (schema.ProjectKey). A change of them needs a new one.
func (s Settings) ProjectKey() string { return schema.ProjectKey(s.Values) }
