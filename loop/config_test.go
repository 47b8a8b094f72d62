package loop_test

import (
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/settings/schema"
)

// TestConfigFromTheTable: DefaultConfig is the settings table's defaults, and ConfigFrom
// carries the settings a run reads without sharing their lists.
func TestConfigFromTheTable(t *testing.T) {
	d := loop.DefaultConfig()
	if d.Rounds != 5 || d.MutantTimeoutFactor != 1.25 || d.MutantTimeoutConstant != 4*time.Second || d.Workers != 0 ||
		d.StepFactor != 10 || d.StepConstant != 1_000 || strings.Join(d.Operators, ",") != "default,strong" ||
		d.WorkerHeapMB != 512 || d.MaxLeakedThreads != 32 || d.SandboxMode != "auto" || len(d.SandboxEnv) != 0 || len(d.MavenArgs) != 0 {
		t.Errorf("defaults %+v", d)
	}
	v := schema.Defaults(func(string) string { return "" })
	for name, text := range map[string]string{"rounds": "3", "maven.args": "-o", "jacoco.agentPath": "/j.jar", "workers": "2",
		"mutantTimeout.constantMs": "100", "sandbox.env": "HOME", "mutants.operators": "strong"} {
		if err := schema.Set(&v, name, text); err != nil {
			t.Fatal(err)
		}
	}
	c := loop.ConfigFrom(v)
	if c.Rounds != 3 || strings.Join(c.MavenArgs, " ") != "-o" || c.JacocoAgentPath != "/j.jar" || c.Workers != 2 ||
		c.MutantTimeoutConstant != 100*time.Millisecond || strings.Join(c.SandboxEnv, ",") != "HOME" || strings.Join(c.Operators, ",") != "strong" {
		t.Errorf("ConfigFrom %+v", c)
	}
	c.MavenArgs[0], c.Operators[0] = "changed", "changed"
	if v.MavenArgs[0] != "-o" || v.Operators[0] != "strong" {
		t.Error("ConfigFrom shares its lists with the settings")
	}
}
