package harness

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

// launchSpec is how to start a worker JVM and what to tell it first.
type launchSpec struct {
	java string
	args []string // JVM flags, class path and main class
	init initRequest
	cds  *cdsSpec // nil when the JDK cannot make a dynamic CDS archive (before 13)
	// sandbox contains the worker (its Scratch is set per worker); its Dir is Config.WorkDir.
	sandbox sandbox.Spec
	// readGen counts the paths added by Pool.AllowRead: a worker started before the last one
	// may not see it.
	readGen int64
	// workerJar is the worker's jar (its folder is named by the hash of the worker's sources);
	// cacheDir is Config.CacheDir or its default. Set by prepare, never changed.
	workerJar, cacheDir string
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

// maxLine bounds one protocol line; a worker that writes a longer one is killed.
const maxLine = 64 << 20

// workerCommand is everything that starts one worker process, in one place so that the sandbox
// wraps each of them. The worker reads the JDK, the cache folder (its jar, the CDS archive, the
// JaCoCo agent, the offline explorer), the library class path and the project's class folders,
// and writes only under its scratch folder (its working directory too, unless Config.WorkDir
// says otherwise).
type workerCommand struct {
	Path string   // the java launcher
	Args []string // JVM flags, class path, main class
	Env  []string
	// Sandbox says what contains the process and what it sees; its Scratch is the worker's
	// scratch folder and the working directory (its Dir, when set, the working directory).
	Sandbox sandbox.Spec
	// Protocol is the write end of the pipe the worker answers on: its fd 3.
	Protocol *os.File
	// Requests is the read end of the pipe the worker reads requests from: its fd 4.
	Requests *os.File
	// Output receives the JVM's own stdout and stderr (its warnings, a crash's last words);
	// stdin is /dev/null.
	Output io.Writer
}

// command is the exec.Cmd for c, run through c.Sandbox: fd 3 and 4 carry the protocol, the
// worker leads its own process group (so that killing the group takes what it spawned) and
// dies with us. In bwrap, the process is bwrap, which ends everything in the sandbox's PID
// namespace when it ends.
func (c workerCommand) command() (*exec.Cmd, error) {
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = c.Env
	cmd.Stdout, cmd.Stderr = c.Output, c.Output
	cmd.ExtraFiles = []*os.File{c.Protocol, c.Requests}
	cmd.SysProcAttr = workerProcAttr()
	if err := c.Sandbox.Apply(cmd); err != nil {
		return nil, err // spawn says which worker
	}
	return cmd, nil
}

// worker is one worker JVM driven over its fd 3 (answers) and fd 4 (requests).
type worker struct {
	cmd     *exec.Cmd
	scratch string        // the worker's scratch folder, removed by Pool.retire
	lines   chan []byte   // the protocol lines, one each; closed at EOF, a read error or an overlong line
	readErr atomic.Value  // string: why lines closed early ("" at EOF)
	exited  chan struct{} // closed once the process has been reaped
	output  *tailBuffer
	nextID  atomic.Int64
	info    initReply // the init answer
	readGen int64     // launchSpec.readGen it started with

	sendMu   sync.Mutex
	requests io.WriteCloser

	exitMu   sync.Mutex
	exitCode int
}

// startWorker starts a worker whose scratch folder is scratch (created here, removed by
// Pool.retire) and waits for its init answer.
func startWorker(ctx context.Context, spec *launchSpec, scratch string, log *zap.Logger) (*worker, error) {
	t0 := time.Now()
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return nil, fmt.Errorf("harness: worker scratch folder: %w", err)
	}
	box := spec.sandbox
	box.Scratch = scratch
	w, err := spawn(workerCommand{Path: spec.java, Args: spec.argsNow(), Env: os.Environ(), Sandbox: box}, scratch)
	if err != nil {
		os.RemoveAll(scratch)
		return nil, err
	}
	w.readGen = spec.readGen
	fail := func(err error) (*worker, error) {
		w.kill()
		os.RemoveAll(scratch)
		return nil, err
	}
	init := spec.init
	init.ScratchDir = scratch
	init.TmpKeep = boundUnder(init.PrivateTmp, append([]string{scratch}, box.ReadOnly...))
	id := w.newID()
	if err := w.send(id, &init); err != nil {
		return fail(fmt.Errorf("harness: init worker: %w", err))
	}
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case line, ok := <-w.lines:
		if !ok {
			return fail(fmt.Errorf("harness: the worker JVM ended during start: %s", w.output.String()))
		}
		var m initReply
		if err := decodeDone(line, id, &m); err != nil {
			return fail(fmt.Errorf("harness: worker init: %w", err))
		}
		if m.Error != "" || !m.Ready {
			return fail(fmt.Errorf("harness: worker init: %s", m.Error))
		}
		w.info = m
		log.Debug("harness: worker started", zap.Duration("took", time.Since(t0)), zap.String("java", m.Java),
			zap.String("coverageUnavailable", m.CoverageUnavailable))
		return w, nil
	case <-timer.C:
		return fail(fmt.Errorf("harness: the worker JVM did not start within %v: %s", startTimeout, w.output.String()))
	case <-ctx.Done():
		return fail(ctx.Err())
	}
}

// spawn starts the process of c with fresh protocol pipes and the goroutines that read it.
func spawn(c workerCommand, scratch string) (*worker, error) {
	protoR, protoW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("harness: protocol pipe: %w", err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		protoR.Close()
		protoW.Close()
		return nil, fmt.Errorf("harness: request pipe: %w", err)
	}
	w := &worker{scratch: scratch, lines: make(chan []byte, 64), exited: make(chan struct{}), output: newTailBuffer(16 << 10), requests: reqW}
	c.Protocol, c.Requests, c.Output = protoW, reqR, w.output
	w.cmd, err = c.command()
	if err == nil {
		err = w.cmd.Start()
	}
	// The child has its copies; ours would keep the pipes open after it dies.
	protoW.Close()
	reqR.Close()
	if err != nil {
		protoR.Close()
		reqW.Close()
		return nil, fmt.Errorf("harness: start worker %s: %w", c.Path, err)
	}
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		defer close(w.lines)
		defer protoR.Close()
		if err := readLines(protoR, maxLine, w.lines); err != nil {
			w.readErr.Store(err.Error())
			// An overlong line: the worker cannot be followed any more.
			_ = w.cmd.Process.Kill()
		}
	}()
	go func() {
		<-readerDone
		// The protocol ended: the worker is gone or useless. Its process group goes too, which
		// takes what a test spawned and the worker's own clean-up missed; done before Wait, while
		// the dead worker's pid still names the group.
		killGroup(w.cmd.Process.Pid)
		err := w.cmd.Wait()
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
	return w, nil
}

// readLines sends each line of r (without its newline) to out until EOF. A line longer than max
// ends it with an error.
func readLines(r io.Reader, max int, out chan<- []byte) error {
	br := bufio.NewReaderSize(r, 1<<16)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			long = append(long, chunk...)
			if len(long) > max {
				return fmt.Errorf("a protocol line over %d bytes", max)
			}
			continue
		case len(long) > 0:
			chunk = append(long, chunk...)
			long = nil
		default:
			chunk = append([]byte(nil), chunk...)
		}
		if len(chunk) > max {
			return fmt.Errorf("a protocol line over %d bytes", max)
		}
		if line := trimNewline(chunk); len(line) > 0 {
			out <- line
		}
		if err != nil {
			return nil // EOF or a closed pipe: the worker is gone
		}
	}
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// lostReason says why the protocol stream ended: "" at a plain EOF.
func (w *worker) lostReason() string {
	s, _ := w.readErr.Load().(string)
	return s
}

func (w *worker) newID() int64 { return w.nextID.Add(1) }

func (w *worker) pid() int { return w.cmd.Process.Pid }

func (w *worker) send(id int64, r request) error {
	b, err := encodeRequest(id, r)
	if err != nil {
		return err
	}
	w.sendMu.Lock()
	defer w.sendMu.Unlock()
	_, err = w.requests.Write(b)
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

// exitInfo waits briefly for the process to be reaped and returns its status and output tail.
func (w *worker) exitInfo() (int, string) {
	select {
	case <-w.exited:
	case <-time.After(2 * time.Second):
	}
	w.exitMu.Lock()
	defer w.exitMu.Unlock()
	return w.exitCode, w.output.String()
}

// kill ends the process (and its process group) and waits until it is reaped.
func (w *worker) kill() {
	_ = w.requests.Close()
	_ = w.cmd.Process.Kill()
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

// testScratch is the folder the worker gives test index of run id (the system property
// advertest.scratch while it runs).
func (w *worker) testScratch(id int64, index int) string {
	return filepath.Join(w.scratch, fmt.Sprintf("%d-%d", id, index))
}

// tailBuffer keeps the last bytes written to it (the worker's own output, for error messages).
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

// boundUnder lists the paths that lie in one of the folders dirs (absolute, cleaned).
func boundUnder(dirs, paths []string) []string {
	out := []string{}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		for _, d := range dirs {
			if within(d, abs) {
				out = append(out, abs)
				break
			}
		}
	}
	return out
}

// within reports whether p is dir or inside it (both absolute and clean).
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
