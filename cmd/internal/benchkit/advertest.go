package benchkit

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Invocation is one run of the advertest CLI.
type Invocation struct {
	// Bin is the advertest binary; Args its arguments; Dir the working folder.
	Bin  string
	Args []string
	Dir  string
	// Log receives stdout and stderr.
	Log string
	// Timeout limits the run: past it the run is interrupted (SIGINT: it writes its partial
	// report and exits 130) and, if it lingers 30 s more, killed.
	Timeout time.Duration
	// Env is added to the environment.
	Env []string
}

// Outcome is how an Invocation ended.
type Outcome struct {
	Seconds  float64
	TimedOut bool
	// ExitCode is the process's exit status (-1 when it did not exit on its own).
	ExitCode int
}

// Run runs the invocation. An error means it did not run or failed (its log's tail is in the
// error); a timeout is not an error (Outcome.TimedOut).
func (in Invocation) Run(ctx context.Context) (Outcome, error) {
	log, err := os.Create(in.Log)
	if err != nil {
		return Outcome{}, err
	}
	defer log.Close()
	runCtx, cancel := context.WithTimeout(ctx, in.Timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, in.Bin, in.Args...)
	cmd.Dir = in.Dir
	cmd.Stdout, cmd.Stderr = log, log
	if len(in.Env) > 0 {
		cmd.Env = append(os.Environ(), in.Env...)
	}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 30 * time.Second
	start := time.Now()
	err = cmd.Run()
	out := Outcome{Seconds: time.Since(start).Seconds(), ExitCode: -1}
	if cmd.ProcessState != nil {
		out.ExitCode = cmd.ProcessState.ExitCode()
	}
	if runCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		out.TimedOut = true
		return out, nil
	}
	if err != nil {
		b, _ := os.ReadFile(in.Log)
		if line := errorLine(string(b)); line != "" {
			return out, fmt.Errorf("%s (%w)\n%s", line, err, Tail(string(b), 3000))
		}
		return out, fmt.Errorf("advertest %s: %w\n%s", in.Args[0], err, Tail(string(b), 3000))
	}
	return out, nil
}

// errorLine is the CLI's own error line in its output ("advertest run: the test agent's first
// move: …"), the last one, or "".
func errorLine(log string) string {
	lines := strings.Split(log, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); strings.HasPrefix(l, "advertest ") && strings.Contains(l, ": ") {
			return l
		}
	}
	return ""
}
