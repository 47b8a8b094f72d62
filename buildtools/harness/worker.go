package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// launchSpec is how to start a worker JVM and what to tell it first.
type launchSpec struct {
	java string
	args []string // JVM flags, class path and main class
	init map[string]any
	cds  *cdsSpec // nil when the JDK cannot make a dynamic CDS archive (before 13)
}

// withoutAgent is s without the JaCoCo agent, or nil when it has none.
func (s *launchSpec) withoutAgent() *launchSpec {
	var args []string
	for _, a := range s.args {
		if !strings.HasPrefix(a, "-javaagent:") {
			args = append(args, a)
		}
	}
	if len(args) == len(s.args) {
		return nil
	}
	c := *s
	c.args = args
	return &c
}

// argsNow is args with the CDS archive in front when one has been made.
func (s *launchSpec) argsNow() []string {
	if s.cds == nil || !fileExists(s.cds.archive) {
		return s.args
	}
	return append([]string{"-XX:SharedArchiveFile=" + s.cds.archive}, s.args...)
}

// startTimeout bounds a worker's start up to its "ready" answer.
const startTimeout = 60 * time.Second

// worker is one worker JVM driven over its stdin/stdout.
type worker struct {
	cmd    *exec.Cmd
	lines  chan []byte   // the worker's stdout, one protocol line each; closed at EOF
	exited chan struct{} // closed once the process has been reaped
	stderr *tailBuffer
	nextID atomic.Int64
	info   wireMsg // the init answer

	sendMu sync.Mutex
	stdin  io.WriteCloser

	exitMu   sync.Mutex
	exitCode int
}

func startWorker(ctx context.Context, spec *launchSpec, log *zap.Logger) (*worker, error) {
	t0 := time.Now()
	cmd := exec.Command(spec.java, spec.argsNow()...)
	cmd.SysProcAttr = workerProcAttr()
	w := &worker{cmd: cmd, lines: make(chan []byte, 64), exited: make(chan struct{}), stderr: newTailBuffer(16 << 10)}
	cmd.Stderr = w.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("harness: worker stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("harness: worker stdout: %w", err)
	}
	w.stdin = stdin
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("harness: start worker %s: %w", spec.java, err)
	}
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		defer close(w.lines)
		r := bufio.NewReaderSize(stdout, 1<<16)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 && line[0] == '{' {
				w.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		<-readerDone
		err := cmd.Wait()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		w.exitMu.Lock()
		w.exitCode = code
		w.exitMu.Unlock()
		close(w.exited)
	}()

	id := w.newID()
	init := map[string]any{"op": "init", "id": id}
	for k, v := range spec.init {
		init[k] = v
	}
	if err := w.send(init); err != nil {
		w.kill()
		return nil, fmt.Errorf("harness: init worker: %w", err)
	}
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				w.kill()
				return nil, fmt.Errorf("harness: the worker JVM ended during start: %s", w.stderr.String())
			}
			m, err := decodeMsg(line)
			if err != nil || m.ID != id || !m.Done {
				continue
			}
			if m.Error != "" || !m.Ready {
				w.kill()
				return nil, fmt.Errorf("harness: worker init: %s", m.Error)
			}
			w.info = *m
			log.Debug("harness: worker started", zap.Duration("took", time.Since(t0)), zap.String("java", m.Java),
				zap.String("coverageUnavailable", m.CoverageUnavailable))
			return w, nil
		case <-timer.C:
			w.kill()
			return nil, fmt.Errorf("harness: the worker JVM did not start within %v: %s", startTimeout, w.stderr.String())
		case <-ctx.Done():
			w.kill()
			return nil, ctx.Err()
		}
	}
}

func (w *worker) newID() int64 { return w.nextID.Add(1) }

func (w *worker) send(msg map[string]any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	w.sendMu.Lock()
	defer w.sendMu.Unlock()
	_, err = w.stdin.Write(b)
	return err
}

func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// exitInfo waits briefly for the process to be reaped and returns its status and stderr tail.
func (w *worker) exitInfo() (int, string) {
	select {
	case <-w.exited:
	case <-time.After(2 * time.Second):
	}
	w.exitMu.Lock()
	defer w.exitMu.Unlock()
	return w.exitCode, w.stderr.String()
}

// kill ends the process and waits until it is reaped.
func (w *worker) kill() {
	_ = w.stdin.Close()
	if w.cmd.Process != nil {
		_ = w.cmd.Process.Kill()
	}
	// The reader goroutine may be blocked handing a line to nobody; drain so it can see EOF.
	for {
		select {
		case <-w.exited:
			return
		case _, ok := <-w.lines:
			if !ok {
				<-w.exited
				return
			}
		}
	}
}

// tailBuffer keeps the last bytes written to it (the worker's stderr, for error messages).
type tailBuffer struct {
	max int
	mu  sync.Mutex
	buf []byte
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
