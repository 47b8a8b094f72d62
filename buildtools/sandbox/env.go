package sandbox

import (
	"runtime"
	"strings"
)

// alwaysPassed are the variables every worker JVM gets (when set): what a JVM and a test need to
// find programs, the JDK, the locale and the time zone. LC_* is matched as a prefix.
var alwaysPassed = []string{"PATH", "JAVA_HOME", "LANG", "TZ"}

// Environ is the environment a worker JVM gets: the entries of environ whose names are in the
// allowlist (PATH, JAVA_HOME, LANG, LC_*, TZ and the policy's Env names), never the API key
// variable, each name once (the last value wins, as in exec.Cmd).
func (p Policy) Environ(environ []string) []string {
	key := p.apiKeyEnv()
	allowed := func(name string) bool {
		if sameName(name, key) {
			return false
		}
		if strings.HasPrefix(name, "LC_") {
			return true
		}
		for _, n := range alwaysPassed {
			if sameName(name, n) {
				return true
			}
		}
		for _, n := range p.Env {
			if sameName(name, n) {
				return true
			}
		}
		return false
	}
	return dedupeEnv(filterEnv(environ, allowed))
}

// ToolEnv is the environment of the tools AdverTest starts outside the sandbox besides the
// build: git (for --diff) and javac (compiling the worker and the explorer). A git helper
// (fsmonitor, askpass, a credential helper) or a javac plugin runs with it. It is the workers'
// allowlist (Environ) and HOME, where git reads its configuration; never the API key variable.
func (p Policy) ToolEnv(environ []string) []string {
	env := p.Environ(environ)
	if h := lookup(environ, "HOME"); h != "" {
		env = withEnv(env, "HOME", h)
	}
	return env
}

// BuildEnv is the environment for the build tools (Maven, Gradle), which run outside the
// sandbox as the user's trusted build: environ without the API key variable, whose name is the
// setting llm.apiKeyEnv ("" is OPENAI_API_KEY).
func BuildEnv(environ []string, apiKeyEnv string) []string {
	if apiKeyEnv == "" {
		apiKeyEnv = DefaultAPIKeyEnv
	}
	return filterEnv(environ, func(name string) bool { return !sameName(name, apiKeyEnv) })
}

// filterEnv keeps the NAME=value entries whose name keep accepts.
func filterEnv(environ []string, keep func(name string) bool) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" || !keep(name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// dedupeEnv keeps the last entry of each name, in the order of first appearance.
func dedupeEnv(env []string) []string {
	last := map[string]string{}
	var order []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		k := envKey(name)
		if _, seen := last[k]; !seen {
			order = append(order, k)
		}
		last[k] = kv
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		out = append(out, last[k])
	}
	return out
}

// withEnv sets name=value in env, replacing an entry of that name.
func withEnv(env []string, name, value string) []string {
	out := filterEnv(env, func(n string) bool { return !sameName(n, name) })
	return append(out, name+"="+value)
}

// sameName compares variable names as the OS does (Windows ignores case).
func sameName(a, b string) bool { return envKey(a) == envKey(b) }

func envKey(name string) string {
	if runtime.GOOS == "windows" {
		return strings.ToUpper(name)
	}
	return name
}
