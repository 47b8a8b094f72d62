package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func noEnv(string) string { return "" }

// TestTableRows: every row is complete and its default passes its own check (Defaults panics
// otherwise), every field of Values has exactly one row, and names are unique.
func TestTableRows(t *testing.T) {
	v := Defaults(noEnv)
	seen := map[string]bool{}
	fields := map[uintptr]string{}
	for i := range Table {
		s := &Table[i]
		if seen[s.Name] {
			t.Errorf("%s is declared twice", s.Name)
		}
		seen[s.Name] = true
		if len(s.Description) < 10 || !strings.HasSuffix(s.Description, ".") && !strings.HasSuffix(s.Description, ")") {
			t.Errorf("%s: description %q", s.Name, s.Description)
		}
		switch s.Scope {
		case Window, Machine, MachineOverridable:
		default:
			t.Errorf("%s: scope %q", s.Name, s.Scope)
		}
		if s.Type == Integer && (s.Max == unbounded || s.Max > 1<<53) {
			t.Errorf("%s: an integer needs a finite maximum", s.Name)
		}
		if (s.Type == Enum) != (len(s.Choices) > 0) {
			t.Errorf("%s: choices %v for type %d", s.Name, s.Choices, s.Type)
		}
		if s.Env != "" && s.Type != String {
			t.Errorf("%s: an environment default for a non-string", s.Name)
		}
		p := reflect.ValueOf(s.field(&v)).Pointer()
		if other, ok := fields[p]; ok {
			t.Errorf("%s and %s share a field", s.Name, other)
		}
		fields[p] = s.Name
	}
	var walk func(rv reflect.Value, name string)
	walk = func(rv reflect.Value, name string) {
		if rv.Kind() == reflect.Struct {
			for i := 0; i < rv.NumField(); i++ {
				walk(rv.Field(i), name+"."+rv.Type().Field(i).Name)
			}
			return
		}
		if _, ok := fields[rv.Addr().Pointer()]; !ok {
			t.Errorf("Values%s has no row in Table", name)
		}
	}
	walk(reflect.ValueOf(&v).Elem(), "")
}

func TestDefaults(t *testing.T) {
	v := Defaults(noEnv)
	if v.Agents != "auto" || v.LLM.BaseURL != DefaultBaseURL || v.LLM.Model != "" || v.LLM.APIKeyEnv != "OPENAI_API_KEY" ||
		v.Rounds != 5 || v.MutantTimeoutConstant != 4*time.Second || v.OnSaveDelay != 500*time.Millisecond || v.OnSave != OnSaveAnalyze ||
		v.MavenArgs == nil || len(v.MavenArgs) != 0 || v.StepConstant != 1_000 || v.SandboxMode != "auto" {
		t.Errorf("defaults %+v", v)
	}
	env := map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1", "ADVERTEST_MODEL": "m"}
	v = Defaults(func(k string) string { return env[k] })
	if v.LLM.BaseURL != "http://127.0.0.1:8080/v1" || v.LLM.Model != "m" {
		t.Errorf("environment defaults: %q %q", v.LLM.BaseURL, v.LLM.Model)
	}
	// Values share no list with the table or each other.
	v.Operators[0] = "changed"
	if Defaults(noEnv).Operators[0] != "default" {
		t.Error("a change to one Values changed the defaults")
	}
}

func TestDecode(t *testing.T) {
	base := Defaults(noEnv)
	v, problems := Decode(base, json.RawMessage(`{"llm.model": "flat", "llm": {"pricing": {"outputPerMTok": 3}},
		"mutantTimeout": {"constantMs": 250}, "maven": {"args": ["-o"]}, "jacoco": null, "rounds": null}`))
	if len(problems) != 0 {
		t.Fatalf("problems %v", problems)
	}
	if v.LLM.Model != "flat" || v.LLM.OutputPerMTok != 3 || v.MutantTimeoutConstant != 250*time.Millisecond || v.Rounds != 5 ||
		strings.Join(v.MavenArgs, " ") != "-o" {
		t.Errorf("decoded %+v", v)
	}
	if len(base.MavenArgs) != 0 {
		t.Errorf("Decode changed its base: %q", base.MavenArgs)
	}
	_, problems = Decode(base, json.RawMessage(`{"llm": {"pricing": 2, "colour": "red"}, "maven": {"args": ["-o", 3]}, "jacoco": {"agentPath": 1}}`))
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		"setting `jacoco.agentPath`: want a non-empty string, got 1; using \"\"",
		"setting `llm.colour`: unknown setting (ignored)",
		"setting `llm.pricing`: want an object, got 2",
		"setting `maven.args`: entry 1: want a string, got 3; using []",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, raw := range []string{"", "null", " "} {
		if v, problems := Decode(base, json.RawMessage(raw)); len(problems) != 0 || v.Rounds != 5 {
			t.Errorf("%q: %v", raw, problems)
		}
	}
	if _, problems := Decode(base, json.RawMessage(`"rounds=3"`)); len(problems) != 1 || problems[0].Path != "advertest" {
		t.Errorf("a string: %v", problems)
	}
}

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       any
	}{
		{"rounds", "3", int64(3)},
		{"rounds", " 7 ", int64(7)},
		{"mutantTimeout.factor", "2.5", 2.5},
		{"mutantTimeout.constantMs", "1500", int64(1500)},
		{"llm.allowInsecureHTTP", "true", true},
		{"llm.model", "gpt-4o", "gpt-4o"},
		{"jacoco.agentPath", "", ""},
		{"onSave", "off", "off"},
		{"maven.args", `["-o", "-Dx=a,b"]`, []string{"-o", "-Dx=a,b"}},
		{"maven.args", "-o,-q", []string{"-o", "-q"}},
		{"maven.args", "-o", []string{"-o"}},
		{"maven.args", "", []string{}},
		{"sandbox.env", "HOME,LANG", []string{"HOME", "LANG"}},
		{"mutants.operators", "default,strong", []string{"default", "strong"}},
	} {
		v := Defaults(noEnv)
		if err := Set(&v, tc.name, tc.text); err != nil {
			t.Errorf("--set %s=%s: %v", tc.name, tc.text, err)
			continue
		}
		if got, _ := v.Get(tc.name); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("--set %s=%s: %#v, want %#v", tc.name, tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct{ name, text, want string }{
		{"rounds", "five", "setting `rounds`: want an integer from 1 to 99, got \"five\""},
		{"rounds", "0", "setting `rounds`: want an integer from 1 to 99, got 0"},
		{"llm.allowInsecureHTTP", "yes", "setting `llm.allowInsecureHTTP`: want true or false, got \"yes\""},
		{"agents", "both", "setting `agents`: want one of auto, llm, offline, got \"both\""},
		{"llm.baseURL", " ", "setting `llm.baseURL`: want a non-empty string, got \" \""},
		{"maven.args", `["-o"`, "setting `maven.args`: want a list of strings, got \"[\\\"-o\\\"\""},
		{"mutants.operators", "", "setting `mutants.operators`: want a non-empty list of strings, got []"},
		{"mutants.operators", "default,", "setting `mutants.operators`: entry 1: want a non-empty string, got \"\""},
		{"sandbox.env", "HOME,A-B", "setting `sandbox.env`: entry 1: want an environment variable name (letters, digits and _, not starting with a digit), got \"A-B\""},
		{"round", "3", "setting `round`: unknown setting (did you mean `rounds`?)"},
		{"colour", "red", "setting `colour`: unknown setting"},
		{"llm.pricing", "1", "setting `llm.pricing`: a group of settings, not a setting: name one of llm.pricing.inputPerMTok, llm.pricing.outputPerMTok"},
	} {
		v := Defaults(noEnv)
		err := Set(&v, tc.name, tc.text)
		if err == nil || err.Error() != tc.want {
			t.Errorf("--set %s=%s: %v\nwant %s", tc.name, tc.text, err, tc.want)
		}
		if !reflect.DeepEqual(v, Defaults(noEnv)) {
			t.Errorf("--set %s=%s: a refused value changed the settings", tc.name, tc.text)
		}
	}
}

func repoFile(t *testing.T, parts ...string) string {
	t.Helper()
	return filepath.Join(append([]string{"..", ".."}, parts...)...)
}

// TestManifestMatchesTable fails while editors/vscode/package.json's settings and Table
// differ: run `go generate ./settings/...`.
func TestManifestMatchesTable(t *testing.T) {
	path := repoFile(t, "editors", "vscode", "package.json")
	pkg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(pkg, &manifest); err != nil {
		t.Fatal(err)
	}
	props := manifest.Contributes.Configuration.Properties
	want := map[string]bool{}
	for i := range Table {
		s := &Table[i]
		key := Section + "." + s.Name
		want[key] = true
		raw, err := s.manifestProperty()
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, props[key], raw) {
			t.Errorf("%s: package.json has %s, the settings table says %s", key, props[key], raw)
		}
	}
	for _, name := range ClientOnly {
		want[Section+"."+name] = true
	}
	for key := range props {
		if !want[key] {
			t.Errorf("package.json has %s, which the settings table lacks", key)
		}
	}
	updated, err := UpdateManifest(pkg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(updated, pkg) {
		t.Errorf("%s differs from the settings table (%s): run `go generate ./settings/...`", path, firstDifference(updated, pkg))
	}
}

// TestDocsMatchTable fails while docs/settings.md and Table differ.
func TestDocsMatchTable(t *testing.T) {
	path := repoFile(t, "docs", "settings.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if md := Markdown(); !bytes.Equal(md, doc) {
		t.Errorf("%s differs from the settings table (%s): run `go generate ./settings/...`", path, firstDifference(md, doc))
	}
	for _, name := range Names() {
		if !bytes.Contains(doc, []byte("| `"+name+"` |")) {
			t.Errorf("%s lacks %s", path, name)
		}
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func firstDifference(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d is %q, want %q", i+1, g, w)
		}
	}
	return "same lines"
}

func TestUpdateManifestKeepsTheRest(t *testing.T) {
	pkg := []byte(`{
  "name": "x",
  "contributes": {
    "commands": [{"command": "a"}],
    "configuration": {
      "title": "T",
      "properties": {
        "advertest.rounds": {"type": "integer"},
        "advertest.logLevel": {"type": "string", "enum": ["", "debug"]},
        "advertest.path": {"type": "string", "default": ""},
        "advertest.logFile": {"type": "string"},
        "advertest.gone": {"type": "string"}
      }
    }
  },
  "scripts": {"test": "x"}
}
`)
	out, err := UpdateManifest(pkg)
	if err != nil {
		t.Fatal(err)
	}
	head := `{
  "name": "x",
  "contributes": {
    "commands": [{"command": "a"}],
    "configuration": {
      "title": "T",
      "properties": {
        "advertest.path": {
          "type": "string",
          "default": ""
        },
        "advertest.logFile": {
          "type": "string"
        },
        "advertest.logLevel": {
          "type": "string",
          "enum": [
            "",
            "debug"
          ]
        },
        "advertest.agents": {`
	tail := `
      }
    }
  },
  "scripts": {"test": "x"}
}
`
	if !strings.HasPrefix(string(out), head) || !strings.HasSuffix(string(out), tail) || strings.Contains(string(out), "advertest.gone") {
		t.Errorf("updated:\n%s", out)
	}
	again, err := UpdateManifest(out)
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second update changes the file: %v", err)
	}
	if _, err := UpdateManifest(bytes.Replace(pkg, []byte(`"advertest.path"`), []byte(`"advertest.paths"`), 1)); err == nil {
		t.Error("a missing client setting is not an error")
	}
	if _, err := UpdateManifest([]byte(`{"contributes": {}}`)); err == nil {
		t.Error("a manifest without properties is not an error")
	}
}

// TestOperatorsAreChecked: a mutants.operators value that names no operator group or code is
// a bad value like any other: Set refuses it naming the setting, Decode keeps the previous one.
func TestOperatorsAreChecked(t *testing.T) {
	v := Defaults(func(string) string { return "" })
	err := Set(&v, "mutants.operators", "default,NOPE")
	if err == nil || !strings.Contains(err.Error(), "mutants.operators") || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("Set: %v", err)
	}
	got, problems := Decode(v, []byte(`{"mutants": {"operators": ["ROR", "bogus"]}}`))
	if len(problems) != 1 || problems[0].Path != "mutants.operators" || strings.Join(got.Operators, ",") != "default,strong" {
		t.Errorf("Decode: %+v, operators %v", problems, got.Operators)
	}
	if err := Set(&v, "mutants.operators", "default,ROR"); err != nil {
		t.Errorf("a good selection: %v", err)
	}
}
