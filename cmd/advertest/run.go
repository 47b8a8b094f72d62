package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"go.uber.org/zap/zapcore"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm"
	"github.com/advertest/advertest-lsp/loop/offline"
	"github.com/advertest/advertest-lsp/loop/report"
)

// agentsFlag is --agents: auto, offline or llm.
type agentsFlag string

func (a *agentsFlag) String() string { return string(*a) }

func (a *agentsFlag) Set(s string) error {
	switch s {
	case "auto", "offline", "llm":
		*a = agentsFlag(s)
		return nil
	}
	return fmt.Errorf("want auto, llm or offline, got %q", s)
}

func runCommand() *command {
	return &command{
		name:    "run",
		args:    "TARGET",
		summary: "run the adversarial loop on one method (TARGET: FILE:LINE, or FILE with --method NAME)",
		minArgs: 1, maxArgs: 1,
		setFlags: func(fs *flag.FlagSet) func(context.Context, *env, []string) int {
			var tf targetFlags
			tf.register(fs)
			agents := agentsFlag("auto")
			fs.Var(&agents, "agents", "`WHO` plays: auto (the LLM when one is configured, else offline), llm or offline")
			rounds := fs.Int("rounds", 5, "agent actions after the initial moves (`N`; an even value is raised by one so that T has the last move)")
			writeTests := fs.Bool("write-tests", false, "write the generated suite into the module's test sources")
			var lf llmFlags
			fs.StringVar(&lf.baseURL, "llm-base-url", "", "the OpenAI-compatible endpoint's `URL` (default $OPENAI_BASE_URL, else "+llm.DefaultBaseURL+")")
			fs.StringVar(&lf.model, "llm-model", "", "the `MODEL` to ask (default $ADVERTEST_MODEL)")
			fs.StringVar(&lf.apiKeyEnv, "llm-api-key-env", "", "the environment variable `NAME` that holds the API key (default OPENAI_API_KEY)")
			return func(ctx context.Context, e *env, args []string) int {
				return runRun(ctx, e, &tf, string(agents), lf, *rounds, *writeTests, args[0])
			}
		},
	}
}

// llmFlags are run's --llm-* flags; empty values leave the environment's or the defaults.
type llmFlags struct{ baseURL, model, apiKeyEnv string }

// llmConfig is the LLM configuration from the environment and the flags.
func (f llmFlags) config() llm.Config {
	c := llm.DefaultConfig(os.Getenv)
	if f.baseURL != "" {
		c.BaseURL = f.baseURL
	}
	if f.model != "" {
		c.Model = f.model
	}
	if f.apiKeyEnv != "" {
		c.APIKeyEnv = f.apiKeyEnv
	}
	return c
}

// agentsFor picks the agents: the LLM's with --agents llm, or with auto when DESIGN's rule
// says one is configured (a model, and an API key or a loopback base URL); else offline.
func agentsFor(mode string, lf llmFlags) (useLLM bool, cfg llm.Config, err error) {
	cfg = lf.config()
	switch mode {
	case "llm":
		if err := cfg.Validate(os.Getenv); err != nil {
			return false, cfg, fmt.Errorf("--agents llm: %w", err)
		}
		return true, cfg, nil
	case "auto":
		return cfg.Configured(os.Getenv) && cfg.Validate(os.Getenv) == nil, cfg, nil
	}
	return false, cfg, nil
}

func runRun(ctx context.Context, e *env, tf *targetFlags, agents string, lf llmFlags, rounds int, writeTests bool, arg string) int {
	if rounds < 1 {
		fmt.Fprintln(e.stderr, "advertest run: --rounds must be at least 1")
		return exitUsage
	}
	target, code := resolveTarget(e, tf, arg)
	if target == nil {
		return code
	}
	useLLM, llmCfg, err := agentsFor(agents, lf)
	if err != nil {
		return failRun(e, "run", err)
	}
	log := stderrLogger(e.stderr, zapcore.Level(tf.logLevel))
	defer func() { _ = log.Sync() }()

	cfg := loop.DefaultConfig()
	cfg.Workers = tf.workers
	cfg.MavenArgs = tf.maven
	cfg.Rounds = rounds
	progress := newProgress(e.stderr)
	progress.phase("loading the project and compiling it")
	proj, err := openProject(ctx, target.File, cfg, log)
	if err != nil {
		return failRun(e, "run", err)
	}
	defer proj.Close()

	var players loop.Agents
	if useLLM {
		client, err := llm.NewClient(llmCfg, llm.ClientOptions{Logger: log})
		if err != nil {
			return failRun(e, "run", err)
		}
		cfg.Budget = client.Budget
		cfg.Usage = client.Usage
		// The LLM's M and the rule-based M feed one pool; origin tells them apart.
		players, _, _ = llm.Agents(client, proj.Pool, log)
	} else {
		tAgent, err := offline.New(proj.Pool, offline.Options{Logger: log, CacheDir: cfg.CacheDir})
		if err != nil {
			return failRun(e, "run", err)
		}
		defer tAgent.Close()
		players = loop.Agents{T: tAgent, M: loop.RuleMutantAgent{}}
	}

	out, err := loop.Run(ctx, proj, target, cfg, players, progress.sink)
	progress.done()
	if out == nil {
		return failRun(e, "run", err)
	}
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		printRunTable(e.stderr, out.Report, false)
		return failRun(e, "run", err)
	}
	printRunTable(e.stderr, out.Report, interrupted)
	if writeTests && !interrupted {
		if msg, werr := writeSuite(out); werr != nil {
			fmt.Fprintf(e.stderr, "advertest run: %v\n", werr)
			return exitFailure
		} else if msg != "" {
			fmt.Fprintln(e.stderr, msg)
		}
	}
	if werr := writeReport(e, tf.jsonPath, out.Report); werr != nil {
		fmt.Fprintf(e.stderr, "advertest run: %v\n", werr)
		return exitFailure
	}
	if interrupted {
		return exitInterrupted
	}
	return exitOK
}

// writeSuite writes the generated test file (--write-tests): never over a file that lacks the
// generated-file marker.
func writeSuite(out *loop.Outcome) (string, error) {
	if len(out.Suite.Tests) == 0 {
		return "no test was generated: nothing written", nil
	}
	if !out.Writable {
		return "", fmt.Errorf("%s exists and was not generated by AdverTest: not overwritten", out.TestFile)
	}
	if err := os.MkdirAll(filepath.Dir(out.TestFile), 0o755); err != nil {
		return "", err
	}
	// The run took a while: the user may have taken the file over since. Look again just
	// before it is replaced.
	keepUsers := func(current []byte, exists bool) error {
		if exists && !loop.HasMarker(current) {
			return fmt.Errorf("%s no longer starts with AdverTest's generated-file marker (it was changed during the run): not overwritten", out.TestFile)
		}
		return nil
	}
	if err := report.ReplaceFile(out.TestFile, []byte(out.FileText), keepUsers); err != nil {
		return "", err
	}
	return fmt.Sprintf("wrote %s (%d tests)", out.TestFile, len(out.Suite.Tests)), nil
}

func printRunTable(w io.Writer, rep *report.Report, interrupted bool) {
	printMutateTable(w, rep, interrupted)
	if len(rep.Rounds) > 0 {
		fmt.Fprintln(w, "  rounds:")
		fmt.Fprintln(w, "    #  agent  score   lines   branches  mutants  tests")
		for _, r := range rep.Rounds {
			score := "   n/a"
			if r.MutationScore != nil {
				score = fmt.Sprintf("%5.1f%%", 100**r.MutationScore)
			}
			fmt.Fprintf(w, "    %-2d %-5s %s  %5.1f%%  %6.1f%%  %7d  %5d\n", r.Index, r.Agent, score, 100*r.LineCoverage, 100*r.BranchCoverage, r.Mutants, r.Tests)
		}
	}
	fmt.Fprintf(w, "  generated  %d tests (%d failing on the original)\n", len(rep.Tests.Methods), len(rep.Tests.FailingOnOriginal))
}
