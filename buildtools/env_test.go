package buildtools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildToolsNeverSeeTheAPIKey runs the loader against a project whose wrapper script (mvnw,
// gradlew: what the loader prefers to mvn and gradle on PATH) records the environment it gets:
// the API key variable is gone, everything else (a canary) is there.
func TestBuildToolsNeverSeeTheAPIKey(t *testing.T) {
	secrets := map[string]string{"OPENAI_API_KEY": "sk-default-name", "MY_LLM_KEY": "sk-configured-name"}
	for name, value := range secrets {
		t.Setenv(name, value)
	}
	t.Setenv("ADVERTEST_BUILD_CANARY", "canary")
	for _, tc := range []struct {
		build, wrapper, apiKeyEnv, hidden, shown string
	}{
		{"pom.xml", "mvnw", "", "OPENAI_API_KEY", "MY_LLM_KEY"},
		{"pom.xml", "mvnw", "MY_LLM_KEY", "MY_LLM_KEY", "OPENAI_API_KEY"},
		{"build.gradle", "gradlew", "", "OPENAI_API_KEY", "MY_LLM_KEY"},
	} {
		t.Run(tc.wrapper+"/"+tc.hidden, func(t *testing.T) {
			root := t.TempDir()
			src := filepath.Join(root, "src", "main", "java", "A.java")
			envFile := filepath.Join(root, "env.txt")
			if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
				t.Fatal(err)
			}
			script := "#!/bin/sh\nenv > " + envFile + "\necho recorded >&2\nexit 3\n"
			for _, f := range []struct {
				path, text string
				perm       os.FileMode
			}{
				{filepath.Join(root, tc.build), "", 0o644},
				{src, "class A {}\n", 0o644},
				{filepath.Join(root, tc.wrapper), script, 0o755},
			} {
				if err := os.WriteFile(f.path, []byte(f.text), f.perm); err != nil {
					t.Fatal(err)
				}
			}
			_, err := LoadModule(testContext(t), src, Options{CacheDir: "-", APIKeyEnv: tc.apiKeyEnv})
			var be *BuildError
			if !errors.As(err, &be) || be.ExitCode != 3 {
				t.Fatalf("the wrapper did not run as the build tool: %v", err)
			}
			b, err := os.ReadFile(envFile)
			if err != nil {
				t.Fatal(err)
			}
			env := "\n" + string(b)
			if strings.Contains(env, "\n"+tc.hidden+"=") || strings.Contains(env, secrets[tc.hidden]) {
				t.Errorf("%s saw %s", tc.wrapper, tc.hidden)
			}
			for _, want := range []string{"\nADVERTEST_BUILD_CANARY=canary\n", "\n" + tc.shown + "="} {
				if !strings.Contains(env, want) {
					t.Errorf("%s did not get %q (the rest of the environment passes)", tc.wrapper, strings.TrimSpace(want))
				}
			}
		})
	}
}
