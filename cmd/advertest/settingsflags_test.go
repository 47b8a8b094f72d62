package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/settings/schema"
)

// parseSettings parses run's flags from args and returns the settings they give.
func parseSettings(t *testing.T, args ...string) schema.Values {
	t.Helper()
	v, err := tryParseSettings(args...)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return v
}

func tryParseSettings(args ...string) (schema.Values, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var tf targetFlags
	tf.register(fs, runFlags...)
	if _, err := parseInterleaved(fs, args); err != nil {
		return schema.Values{}, err
	}
	return tf.settings.values(os.Getenv)
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSettingsPrecedence: defaults < the environment's defaults < --config < --set and the
// shorthand flags, which apply in the order given.
func TestSettingsPrecedence(t *testing.T) {
	t.Setenv("ADVERTEST_MODEL", "from-env")
	t.Setenv("OPENAI_BASE_URL", "")
	dir := t.TempDir()
	cfg := writeFile(t, dir, "ci.json", `{"rounds": 7, "llm": {"model": "from-file", "pricing": {"inputPerMTok": 2}},
		"maven": {"args": ["-o"]}, "mutantTimeout": {"constantMs": 900}, "sandbox": {"mode": "on"}}`)
	wrapped := writeFile(t, dir, "wrapped.json", `{"advertest": {"rounds": 9, "workers": 3}}`)

	if v := parseSettings(t); v.LLM.Model != "from-env" || v.Rounds != 5 || v.LLM.BaseURL != schema.DefaultBaseURL {
		t.Errorf("no flags: model %q rounds %d base %q", v.LLM.Model, v.Rounds, v.LLM.BaseURL)
	}
	v := parseSettings(t, "--config", cfg)
	if v.LLM.Model != "from-file" || v.Rounds != 7 || v.LLM.InputPerMTok != 2 || strings.Join(v.MavenArgs, " ") != "-o" ||
		v.MutantTimeoutConstant != 900*time.Millisecond || v.SandboxMode != "on" {
		t.Errorf("--config: %+v", v)
	}
	// Flags win over the file, wherever --config stands.
	v = parseSettings(t, "--set", "rounds=3", "--llm-model", "from-flag", "--config", cfg, "--maven-arg", "-q", "--sandbox", "off")
	if v.Rounds != 3 || v.LLM.Model != "from-flag" || strings.Join(v.MavenArgs, " ") != "-o -q" || v.SandboxMode != "off" || v.LLM.InputPerMTok != 2 {
		t.Errorf("--config and flags: rounds %d model %q maven %q sandbox %q", v.Rounds, v.LLM.Model, v.MavenArgs, v.SandboxMode)
	}
	// Among flags, the later wins.
	if v := parseSettings(t, "--set", "rounds=3", "--rounds", "9"); v.Rounds != 9 {
		t.Errorf("--set rounds=3 --rounds 9: %d", v.Rounds)
	}
	if v := parseSettings(t, "--rounds", "9", "--set", "rounds=3"); v.Rounds != 3 {
		t.Errorf("--rounds 9 --set rounds=3: %d", v.Rounds)
	}
	// --set replaces a list; --maven-arg adds to it.
	v = parseSettings(t, "--config", cfg, "--set", `maven.args=["-B","-Dx=a,b"]`, "--maven-arg", "-q")
	if strings.Join(v.MavenArgs, " ") != "-B -Dx=a,b -q" {
		t.Errorf("maven args %q", v.MavenArgs)
	}
	if v := parseSettings(t, "--config", wrapped, "--workers", "2"); v.Rounds != 9 || v.Workers != 2 {
		t.Errorf("an advertest member: rounds %d workers %d", v.Rounds, v.Workers)
	}
	v = parseSettings(t, "--set", "sandbox.env=HOME,LANG", "--set", "mutants.operators=default,strong", "--set", "llm.maxReplyTokens=512",
		"--set", "worker.heapMB=1024", "--set", "mutantTimeout.stepFactor=4")
	if strings.Join(v.SandboxEnv, ",") != "HOME,LANG" || strings.Join(v.Operators, ",") != "default,strong" || v.LLM.MaxReplyTokens != 512 ||
		v.WorkerHeapMB != 1024 || v.StepFactor != 4 {
		t.Errorf("new settings: %+v", v)
	}
}

// TestSettingsUsageErrors: a bad flag value, an unknown setting or a bad --config file is a
// usage error (status 2) that names the setting.
func TestSettingsUsageErrors(t *testing.T) {
	dir := t.TempDir()
	java := writeFile(t, dir, "A.java", "class A {\n    int f(int x) {\n        return x + 1;\n    }\n}\n")
	bad := writeFile(t, dir, "bad.json", `{"rounds": "five", "colour": 1, "llm": {"temperature": 3}}`)
	notJSON := writeFile(t, dir, "not.json", `rounds: 5`)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", java + ":3", "--rounds", "0"}, []string{"setting `rounds`: want an integer from 1 to 99, got 0"}},
		{[]string{"run", java + ":3", "--set", "rounds=five"}, []string{"setting `rounds`: want an integer from 1 to 99, got \"five\""}},
		{[]string{"run", java + ":3", "--set", "round=3"}, []string{"setting `round`: unknown setting (did you mean `rounds`?)"}},
		{[]string{"run", java + ":3", "--set", "rounds"}, []string{"-set", "want NAME=VALUE"}},
		{[]string{"run", java + ":3", "--agents", "both"}, []string{"setting `agents`: want one of auto, llm, offline"}},
		{[]string{"mutate", java + ":3", "--sandbox", "maybe"}, []string{"setting `sandbox.mode`: want one of auto, on, off, got \"maybe\""}},
		{[]string{"mutate", java + ":3", "--workers", "-1"}, []string{"setting `workers`: want an integer from 0 to 64, got -1"}},
		{[]string{"mutate", java + ":3", "--set", "sandbox.env=A-B"}, []string{"setting `sandbox.env`: entry 0"}},
		{[]string{"mutate", java + ":3", "--set", "mutants.operators="}, []string{"setting `mutants.operators`: want a non-empty list"}},
		{[]string{"mutate", java + ":3", "--set", "mutants.operators=default,NOPE"}, []string{"setting `mutants.operators`", "NOPE"}},
		{[]string{"run", java + ":3", "--config", bad}, []string{
			"setting `colour`: unknown setting (ignored)",
			"setting `llm.temperature`: want a number from 0 to 2, got 3",
			"setting `rounds`: want an integer from 1 to 99, got \"five\"",
		}},
		{[]string{"mutate", java + ":3", "--config", notJSON}, []string{"setting `advertest`: want a JSON object"}},
		{[]string{"mutate", java + ":3", "--config", filepath.Join(dir, "missing.json")}, []string{"--config", "missing.json"}},
	} {
		code, out, errOut := runCLI(tc.args...)
		ok := code == exitUsage && out == ""
		for _, w := range tc.want {
			ok = ok && strings.Contains(errOut, w)
		}
		if !ok {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args[2:], code, out, errOut, tc.want)
		}
		if strings.Contains(errOut, "; using") {
			t.Errorf("%q: a usage error says what it would use: %q", tc.args[2:], errOut)
		}
	}
}

// TestShorthandsDocumented: every shorthand flag names a setting and is in docs/settings.md
// and the README; run and mutate take --config, --set and --sandbox.
func TestShorthandsDocumented(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "settings.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append([]shorthand{workersFlag, mavenFlag, sandboxFlag}, runFlags...) {
		if schema.Lookup(s.setting) == nil {
			t.Errorf("--%s sets the unknown setting %s", s.flag, s.setting)
		}
		for name, text := range map[string][]byte{"docs/settings.md": docs, "README.md": readme} {
			if !strings.Contains(string(text), "`--"+s.flag+" ") {
				t.Errorf("%s does not list --%s", name, s.flag)
			}
		}
	}
	for _, cmd := range []string{"run", "mutate"} {
		_, out, _ := runCLI("help", cmd)
		for _, want := range []string{"--config FILE", "--set NAME=VALUE", "--sandbox MODE", "--workers N", "--maven-arg ARG"} {
			if !strings.Contains(out, want) {
				t.Errorf("help %s lacks %s:\n%s", cmd, want, out)
			}
		}
	}
	if _, out, _ := runCLI("help", "run"); !strings.Contains(out, "--rounds N") || !strings.Contains(out, "(default 5)") {
		t.Errorf("help run: %s", out)
	}
}
