package harness

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

func hostile(m string) TestID { return TestID{Class: "org.acme.HostileTest", Method: m} }

var (
	clampsLow = TestID{Class: "org.acme.CalcTest", Method: "clampsLow"}
	sums      = TestID{Class: "org.acme.CalcTest", Method: "sums"}
)

// TestForgedProtocolLines runs a test that writes protocol lines on System.out, on fd 1 and on
// every pipe it finds under /proc/self/fd (the real protocol descriptor among them) between
// honest tests: the honest verdicts stand, the forger ends as an error that says it broke the
// protocol, and the run does not fail.
func TestForgedProtocolLines(t *testing.T) {
	p := openPool(t, fx.j4.config())
	forger := hostile("forgesProtocolLines")
	r := run(t, p, RunSpec{Tests: []TestID{clampsLow, forger, sums}})
	want := "map[org.acme.CalcTest.clampsLow:passed org.acme.CalcTest.sums:passed org.acme.HostileTest.forgesProtocolLines:error]"
	if got := fmt.Sprint(outcomes(r)); got != want {
		t.Fatalf("outcomes = %s\nwant       %s", got, want)
	}
	msg := find(t, r, forger.String()).Message
	if !strings.Contains(msg, "broke the worker protocol") {
		t.Errorf("forger's message = %q", msg)
	}
	t.Logf("the forger's verdict: %s", msg)
	if !r.WorkerRestarted || !strings.Contains(r.RestartReason, "protocol") {
		t.Errorf("WorkerRestarted = %v, RestartReason = %q", r.WorkerRestarted, r.RestartReason)
	}
	// The same with StopAtFirstFailure, as mutation testing runs: the forger's error stops it.
	r = run(t, p, RunSpec{Tests: []TestID{clampsLow, forger, sums}, StopAtFirstFailure: true})
	if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcTest.clampsLow:passed org.acme.HostileTest.forgesProtocolLines:error]" {
		t.Errorf("StopAtFirstFailure: outcomes = %s", got)
	}
	// The pool is sound afterwards.
	r = run(t, p, RunSpec{Tests: []TestID{sums}})
	if got := find(t, r, sums.String()).Outcome; got != Passed {
		t.Errorf("next run: %s", got)
	}
}

// TestOverlongProtocolLine runs a test that writes a line of 65 MiB on the protocol's
// descriptor: the Go side stops reading at 64 MiB, kills the worker and reports the test.
func TestOverlongProtocolLine(t *testing.T) {
	p := openPool(t, fx.j4.config())
	long := hostile("writesAnOverlongLine")
	r := run(t, p, RunSpec{Tests: []TestID{long, clampsLow}})
	if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcTest.clampsLow:passed org.acme.HostileTest.writesAnOverlongLine:error]" {
		t.Fatalf("outcomes = %s", got)
	}
	if msg := find(t, r, long.String()).Message; !strings.Contains(msg, "broke the worker protocol") || !strings.Contains(msg, "protocol line over") {
		t.Errorf("message = %q", msg)
	}
}

// TestSpawnedProcessesDoNotOutliveTheirTest runs a test that starts `sleep 987654` and a shell
// that keeps forking `sleep 987653`, and returns: none may be left in the process table. The
// shell is killed while it forks, so sleepers it forked after a listing are orphans outside the
// worker's tree; they are found by their process group, which the worker leads outside the
// sandbox and bwrap's init leads inside it. Both ways are run (the sandboxed one where bwrap
// works).
func TestSpawnedProcessesDoNotOutliveTheirTest(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.ModeAuto, sandbox.ModeOff} {
		t.Run(string(mode), func(t *testing.T) {
			cfg := fx.j4.config()
			cfg.SandboxPolicy = sandbox.Policy{Mode: mode}
			p := openPool(t, cfg)
			t.Logf("sandbox: %s", p.Sandbox())
			r := run(t, p, RunSpec{Tests: []TestID{hostile("spawnsSleepers"), clampsLow}})
			if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcTest.clampsLow:passed org.acme.HostileTest.spawnsSleepers:passed]" {
				t.Fatalf("outcomes = %s", got)
			}
			if r.WorkerRestarted {
				t.Errorf("worker restarted: %s", r.RestartReason)
			}
			// The worker killed them before it reported the test; the orphans are reaped by
			// init, which may take a moment: wait for the condition (not while the pool, whose
			// end would kill them, is closed).
			deadline := time.Now().Add(20 * time.Second)
			for {
				left := processesWith("987654", "987653")
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d processes left behind by the test: %v", len(left), left)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

// processesWith lists the live processes whose command line has one of the words.
func processesWith(words ...string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, d := range dirs {
		cmd, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || len(cmd) == 0 {
			continue // gone, or a zombie
		}
		args := strings.Split(string(bytes.TrimRight(cmd, "\x00")), "\x00")
		for _, a := range args {
			for _, w := range words {
				if a == w || strings.Contains(a, "sleep "+w) {
					out = append(out, filepath.Base(d)+": "+strings.Join(args, " ")+" ("+statSummary(d)+")")
				}
			}
		}
	}
	return out
}

// statSummary gives a process's state, parent and process group from its /proc folder d, to
// say where a process left behind hangs.
func statSummary(d string) string {
	b, err := os.ReadFile(filepath.Join(d, "stat"))
	if err != nil {
		return "gone"
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndex(s, ")")+1:])
	if len(f) < 3 {
		return "unreadable stat"
	}
	return "state " + f[0] + ", parent " + f[1] + ", group " + f[2]
}

// TestLeakedThreads runs a test that leaves a thread blocked for ever: later tests are not held
// up, and once the threads left pass Config.ThreadLimit the worker is restarted and says why.
func TestLeakedThreads(t *testing.T) {
	cfg := fx.j4.config()
	cfg.ThreadLimit = 2
	p := openPool(t, cfg)
	leak := hostile("leaksBlockedThread")
	for i := 1; i <= 3; i++ {
		r := run(t, p, RunSpec{Tests: []TestID{leak, clampsLow}})
		if got := fmt.Sprint(outcomes(r)); got != "map[org.acme.CalcTest.clampsLow:passed org.acme.HostileTest.leaksBlockedThread:passed]" {
			t.Fatalf("run %d: outcomes = %s", i, got)
		}
		switch {
		case i < 3 && r.WorkerRestarted:
			t.Fatalf("run %d: restarted with %d threads left: %s", i, i, r.RestartReason)
		case i == 3 && (!r.WorkerRestarted || !strings.Contains(r.RestartReason, "3 threads left running by tests (the limit is 2)")):
			t.Fatalf("run %d: WorkerRestarted = %v, RestartReason = %q", i, r.WorkerRestarted, r.RestartReason)
		}
	}
	// The restarted worker starts from nothing again.
	r := run(t, p, RunSpec{Tests: []TestID{leak}})
	if r.WorkerRestarted {
		t.Errorf("a fresh worker restarted after one leaked thread: %s", r.RestartReason)
	}
}

// TestOutputIsCapturedPerTest checks that what tests print comes back with their results,
// bounded, and that nothing reaches the protocol.
func TestOutputIsCapturedPerTest(t *testing.T) {
	p := openPool(t, fx.j4.config())
	noisy := TestID{Class: "org.acme.TroubleTest", Method: "noisy"}
	mega := hostile("printsAMegabyte")
	r := run(t, p, RunSpec{Tests: []TestID{noisy, mega, clampsLow}})
	n := find(t, r, noisy.String())
	if n.Outcome != Passed || !strings.Contains(n.Stdout, `"noise":"x"`) || n.Stderr != "noise on stderr\n" {
		t.Errorf("noisy: %s stdout=%q stderr=%q", n.Outcome, n.Stdout, n.Stderr)
	}
	m := find(t, r, mega.String())
	if m.Outcome != Passed || len(m.Stdout) > testOutputLimit+100 || !strings.Contains(m.Stdout, "more bytes dropped") ||
		!strings.HasPrefix(m.Stdout, "0123456789") || m.Stderr != "and a word on stderr\n" {
		t.Errorf("a megabyte: %s, %d bytes kept, ends %q, stderr %q", m.Outcome, len(m.Stdout), m.Stdout[max(0, len(m.Stdout)-60):], m.Stderr)
	}
	if c := find(t, r, clampsLow.String()); c.Stdout != "" || c.Stderr != "" {
		t.Errorf("a quiet test got output: %q %q", c.Stdout, c.Stderr)
	}
}

// TestScratchFiles checks that a test's files in its scratch folder come back with its result,
// and that its working directory is the worker's scratch folder, inside Config.ScratchDir.
func TestScratchFiles(t *testing.T) {
	cfg := fx.j4.config()
	cfg.ScratchDir = filepath.Join(t.TempDir(), "scratch")
	p := openPool(t, cfg)
	r := run(t, p, RunSpec{Tests: []TestID{hostile("writesScratchFiles")}})
	tr := find(t, r, "org.acme.HostileTest.writesScratchFiles")
	if tr.Outcome != Passed {
		t.Fatalf("%s: %s", tr.Outcome, tr.Message)
	}
	if got := string(tr.Files["out.txt"]); got != "hello from the test" || len(tr.Files) != 1 {
		t.Errorf("Files = %v", tr.Files)
	}
	for _, line := range strings.Split(strings.TrimSpace(tr.Stdout), "\n") {
		_, path, _ := strings.Cut(line, "=")
		if !strings.HasPrefix(path, cfg.ScratchDir+string(filepath.Separator)) {
			t.Errorf("%s: outside the scratch folder %s", line, cfg.ScratchDir)
		}
	}
	// The test's folder is gone once its files are read; the worker's folder goes with the pool.
	if left, _ := filepath.Glob(filepath.Join(cfg.ScratchDir, "*", "*-0")); len(left) != 0 {
		t.Errorf("test folders left: %v", left)
	}
	p.Close()
	if left, _ := filepath.Glob(filepath.Join(cfg.ScratchDir, "*")); len(left) != 0 {
		t.Errorf("worker folders left after Close: %v", left)
	}
	// Config.WorkDir moves the working directory (and only that); in the sandbox it is
	// read-only, so the relative write fails there and nothing lands in it.
	cfg.WorkDir = t.TempDir()
	p = openPool(t, cfg)
	r = run(t, p, RunSpec{Tests: []TestID{hostile("writesScratchFiles")}})
	tr = find(t, r, "org.acme.HostileTest.writesScratchFiles")
	if string(tr.Files["out.txt"]) != "hello from the test" {
		t.Errorf("with WorkDir %s: files %v", cfg.WorkDir, tr.Files)
	}
	if p.cfg.Sandbox.Contained() {
		if tr.Outcome != Error || !strings.Contains(tr.Message, "Read-only file system") {
			t.Errorf("with WorkDir %s in the sandbox: %s %q", cfg.WorkDir, tr.Outcome, tr.Message)
		}
		if _, err := os.Stat(filepath.Join(cfg.WorkDir, "relative.txt")); err == nil {
			t.Errorf("the test wrote into the read-only working directory %s", cfg.WorkDir)
		}
	} else if tr.Outcome != Passed || !strings.Contains(tr.Stdout, "cwd="+cfg.WorkDir+"\n") {
		t.Errorf("with WorkDir %s: %s %q", cfg.WorkDir, tr.Outcome, tr.Stdout)
	}
}
