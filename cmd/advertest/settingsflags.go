package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/advertest/advertest-lsp/settings/schema"
)

// settingsFlags are the flags that set settings (see docs/settings.md): --config FILE, then
// --set name=value and the shorthand flags in the order given, over the defaults and the
// environment's. Each flag's value is checked as it is parsed, so a bad one is a usage error
// naming its setting.
type settingsFlags struct {
	configPath string
	// edits are --set and the shorthands, in command-line order.
	edits []settingEdit
}

// settingEdit is one setting from the command line; add appends text to a list instead.
type settingEdit struct {
	name, text string
	add        bool
}

// shorthand is a flag that sets one setting.
type shorthand struct {
	flag, setting, usage string
	// add makes a repeatable flag that adds its value to a list setting.
	add bool
}

// register declares --config, --set and the shorthands on fs.
func (f *settingsFlags) register(fs *flag.FlagSet, shorthands ...shorthand) {
	fs.StringVar(&f.configPath, "config", "", "read settings from the JSON `FILE` (the server's nested advertest object; see docs/settings.md)")
	fs.Var(setFlag{f}, "set", "set one setting by its dotted name (`NAME=VALUE`; repeatable; wins over --config)")
	for _, s := range shorthands {
		if schema.Lookup(s.setting) == nil {
			panic("shorthand --" + s.flag + " for an unknown setting " + s.setting)
		}
		fs.Var(shorthandFlag{f, s}, s.flag, s.usage)
	}
}

// Shorthands, by the commands that take them.
var (
	sandboxFlag = shorthand{flag: "sandbox", setting: "sandbox.mode", usage: "run the tests in the sandbox: `MODE` auto, on or off"}
	workersFlag = shorthand{flag: "workers", setting: "workers", usage: "worker JVMs (`N`; 0: one per core)"}
	mavenFlag   = shorthand{flag: "maven-arg", setting: "maven.args", usage: "an extra Maven argument (`ARG`; repeatable)", add: true}
	runFlags    = []shorthand{
		{flag: "agents", setting: "agents", usage: "`WHO` plays: auto (the LLM when one is configured, else offline), llm or offline"},
		{flag: "rounds", setting: "rounds", usage: "agent actions after the initial moves (`N`; an even value is raised by one so that T has the last move)"},
		{flag: "llm-base-url", setting: "llm.baseURL", usage: "the OpenAI-compatible endpoint's `URL` (default $OPENAI_BASE_URL, else " + schema.DefaultBaseURL + ")"},
		{flag: "llm-model", setting: "llm.model", usage: "the `MODEL` to ask (default $ADVERTEST_MODEL)"},
		{flag: "llm-api-key-env", setting: "llm.apiKeyEnv", usage: "the environment variable `NAME` that holds the API key"},
	}
)

// values are the settings: the defaults and the environment's (getenv), the --config file,
// then the command line's in order. A bad file or value is a usage error.
func (f *settingsFlags) values(getenv func(string) string) (schema.Values, error) {
	v := schema.Defaults(getenv)
	if f.configPath != "" {
		var err error
		if v, err = readConfig(v, f.configPath); err != nil {
			return v, err
		}
	}
	for _, e := range f.edits {
		if err := e.apply(&v); err != nil {
			return v, usagef("%v", err)
		}
	}
	return v, nil
}

// readConfig overlays the JSON object in path on v: the server's `advertest` object, or an
// object with an `advertest` member.
func readConfig(v schema.Values, path string) (schema.Values, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return v, usagef("--config: %v", err)
	}
	var outer map[string]json.RawMessage
	if json.Unmarshal(raw, &outer) == nil {
		if inner, ok := outer[schema.Section]; ok && bytes.HasPrefix(bytes.TrimSpace(inner), []byte("{")) {
			raw = inner
		}
	}
	v, problems := schema.Decode(v, raw)
	if len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.Err().Error()
		}
		return v, usagef("--config %s: %s", path, strings.Join(msgs, "; "))
	}
	return v, nil
}

func (e settingEdit) apply(v *schema.Values) error {
	if !e.add {
		return schema.Set(v, e.name, e.text)
	}
	cur, _ := v.Get(e.name)
	list, _ := cur.([]string)
	b, err := json.Marshal(append(list, e.text))
	if err != nil {
		return err
	}
	return schema.Set(v, e.name, string(b))
}

// record checks e on its own (against the defaults) and keeps it for values.
func (f *settingsFlags) record(e settingEdit) error {
	scratch := schema.Defaults(func(string) string { return "" })
	if err := e.apply(&scratch); err != nil {
		return err
	}
	f.edits = append(f.edits, e)
	return nil
}

// setFlag is --set NAME=VALUE.
type setFlag struct{ f *settingsFlags }

func (s setFlag) String() string { return "" }

func (s setFlag) Set(text string) error {
	name, value, ok := strings.Cut(text, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return errors.New("want NAME=VALUE, e.g. rounds=3 or maven.args=-o,-q")
	}
	return s.f.record(settingEdit{name: strings.TrimSpace(name), text: value})
}

// shorthandFlag is a flag for one setting.
type shorthandFlag struct {
	f *settingsFlags
	s shorthand
}

// String is the setting's default as the help shows it ("" for one the environment gives
// or an empty one).
func (s shorthandFlag) String() string {
	if s.f == nil { // flag.isZeroValue's probe
		return ""
	}
	row := schema.Lookup(s.s.setting)
	if row.Env != "" {
		return ""
	}
	switch d := row.Default.(type) {
	case string:
		return d
	case []string:
		return strings.Join(d, ",")
	}
	return fmt.Sprint(row.Default)
}

func (s shorthandFlag) Set(text string) error {
	return s.f.record(settingEdit{name: s.s.setting, text: text, add: s.s.add})
}
