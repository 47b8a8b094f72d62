package buildtools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

// ErrToolMissing is matched (errors.Is) by a *ToolMissingError.
var ErrToolMissing = errors.New("build tool not found")

// ToolMissingError says that neither a wrapper nor the build tool on PATH was found.
type ToolMissingError struct {
	Tool   string // "mvn" or "gradle"
	Module string // the module root that needed it
}

func (e *ToolMissingError) Error() string {
	hint := "install Maven (mvn) or add the Maven wrapper (mvnw) to the project"
	if e.Tool == "gradle" {
		hint = "install Gradle or add the Gradle wrapper (gradlew) to the project"
	}
	return fmt.Sprintf("%s not found on PATH for the module at %s: %s", e.Tool, e.Module, hint)
}

func (e *ToolMissingError) Is(target error) bool { return target == ErrToolMissing }

// BuildError is a build tool run that failed. Output is the tool's own output (its log file for
// Maven, stdout and stderr for Gradle); Error() shows the lines that matter, and the tail.
type BuildError struct {
	Tool     string   // the executable that ran
	Args     []string // its arguments
	Dir      string   // where it ran
	Purpose  string   // what it was asked for: "read the project model", "compile"
	ExitCode int      // -1 when it did not exit normally
	Output   string   // the tool's own output, colour codes removed
	Err      error    // the exec error
}

func (e *BuildError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s could not %s in %s (%s)", filepath.Base(e.Tool), e.Purpose, e.Dir, exitText(e))
	if summary := e.Summary(); summary != "" {
		b.WriteString(":\n")
		b.WriteString(summary)
	}
	return b.String()
}

func exitText(e *BuildError) string {
	if e.ExitCode >= 0 {
		return fmt.Sprintf("exit status %d", e.ExitCode)
	}
	return e.Err.Error()
}

func (e *BuildError) Unwrap() error { return e.Err }

// maxSummaryLines bounds how much of a failed build's output goes into the error text.
const maxSummaryLines = 40

// Summary returns the lines of Output that carry the failure: Maven's [ERROR] lines, Gradle's
// error block ("FAILURE:", "What went wrong", compiler "error:" lines), else the output's tail.
func (e *BuildError) Summary() string {
	lines := strings.Split(strings.TrimRight(e.Output, "\n"), "\n")
	var picked []string
	inGradleBlock := false // between Gradle's "* Where:"/"* What went wrong:" and "* Try:"
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if inGradleBlock {
			if strings.HasPrefix(t, "* Try:") || strings.HasPrefix(t, "* Get more help") || strings.HasPrefix(t, "BUILD FAILED") {
				inGradleBlock = false
			} else if t != "" {
				picked = append(picked, strings.TrimRight(l, " \t"))
			}
			continue
		}
		switch {
		case strings.HasPrefix(t, "[ERROR]"):
			if t == "[ERROR]" || strings.HasPrefix(t, "[ERROR] -> [Help") ||
				strings.HasPrefix(t, "[ERROR] Re-run Maven") || strings.HasPrefix(t, "[ERROR] To see the full") ||
				strings.HasPrefix(t, "[ERROR] For more information") || strings.HasPrefix(t, "[ERROR] [Help") {
				continue
			}
			picked = append(picked, t)
		case strings.HasPrefix(t, "* Where:"), strings.HasPrefix(t, "* What went wrong"):
			picked = append(picked, t)
			inGradleBlock = true
		case strings.HasPrefix(t, "FAILURE:"), strings.Contains(t, ": error:"):
			picked = append(picked, t)
		}
	}
	picked = dedupe(picked)
	if len(picked) == 0 {
		picked = lines
		if len(picked) > 15 {
			picked = picked[len(picked)-15:]
		}
	}
	if len(picked) > maxSummaryLines {
		picked = append(picked[:maxSummaryLines], fmt.Sprintf("... (%d more lines)", len(picked)-maxSummaryLines))
	}
	return strings.Join(picked, "\n")
}

// dedupe drops repeated lines (Maven prints each compiler error twice), keeping the order.
func dedupe(lines []string) []string {
	seen := map[string]bool{}
	out := lines[:0:0]
	for _, l := range lines {
		key := strings.TrimSpace(strings.TrimPrefix(l, "[ERROR]"))
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, l)
	}
	return out
}

var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// stripANSI removes terminal colour codes (Maven writes them even with -B).
func stripANSI(s string) string { return ansiEscape.ReplaceAllString(s, "") }

// toolRun is one build tool invocation.
type toolRun struct {
	tool    string // executable path
	args    []string
	dir     string
	env     []string // extra environment, appended to the build tools' environment
	purpose string
	logFile string // when set, the tool's output is read from this file (Maven's -l)
}

// run executes the tool and returns its output; a non-zero exit becomes a *BuildError. The tool
// runs outside the sandbox, as the user's own build would, with this process's environment less
// the API key variable apiKeyEnv (the setting llm.apiKeyEnv; "" is OPENAI_API_KEY): the build's
// plugins and tests never see the key.
func (r toolRun) run(ctx context.Context, log *zap.Logger, apiKeyEnv string) (string, error) {
	start := time.Now()
	cmd := exec.CommandContext(ctx, r.tool, r.args...)
	cmd.Dir = r.dir
	ownProcessGroup(cmd)
	cmd.Env = append(sandbox.BuildEnv(os.Environ(), apiKeyEnv), r.env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.WaitDelay = 5 * time.Second
	// The build runs the project's own plugins and tests: it inherits no descriptor this
	// process did not open for it (docs/sandbox.md, "Descriptors").
	err := sandbox.SealDescriptors()
	if err == nil {
		err = cmd.Run()
	}
	output := out.String()
	if r.logFile != "" {
		if b, rerr := os.ReadFile(r.logFile); rerr == nil {
			output = string(b) + output
		}
	}
	output = stripANSI(output)
	log.Debug("build tool ran", zap.String("tool", r.tool), zap.Strings("args", r.args),
		zap.String("dir", r.dir), zap.Duration("took", time.Since(start)), zap.Error(err))
	if err != nil {
		if ctx.Err() != nil {
			return output, fmt.Errorf("%s %s: %w", filepath.Base(r.tool), r.purpose, ctx.Err())
		}
		code := -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		return output, &BuildError{Tool: r.tool, Args: r.args, Dir: r.dir, Purpose: r.purpose,
			ExitCode: code, Output: output, Err: err}
	}
	return output, nil
}

// findWrapper looks for an executable wrapper script (mvnw, gradlew) in dir and its parents up
// to and including top.
func findWrapper(name, dir, top string) string {
	for {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
		if dir == top || !isWithin(top, dir) {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
