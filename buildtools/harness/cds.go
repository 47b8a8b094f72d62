package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

// cdsSpec says where a worker's dynamic class-data-sharing archive lives and how to make it. The
// archive (JDK 13+) holds the worker's, javac's and ASM's classes as loaded by a training run; it
// brings a worker's start to its first result from about 1.0-1.2 s down to 0.6-0.8 s.
type cdsSpec struct {
	archive string
	args    []string // the worker's JVM flags, class path and main class, without the JaCoCo agent
}

// cdsArchivePath keys the archive by worker build and JDK (path, size and modification time of
// java and the JDK's release file), since an archive only maps into the JVM that wrote it.
func cdsArchivePath(workerJar, java string) string {
	h := sha256.New()
	for _, f := range []string{java, filepath.Join(filepath.Dir(filepath.Dir(java)), "release")} {
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(h, "%s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
		}
	}
	return filepath.Join(filepath.Dir(workerJar), "cds-"+hex.EncodeToString(h.Sum(nil))[:12]+".jsa")
}

// jdkMajor reads the major version from the JDK's release file (0 when unknown).
func jdkMajor(java string) int {
	b, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(java)), "release"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "JAVA_VERSION=\""); ok {
			v = strings.TrimSuffix(strings.TrimSpace(v), "\"")
			v = strings.TrimPrefix(v, "1.")
			major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
			return major
		}
	}
	return 0
}

// trainingSource is compiled by the training run so that javac's and ASM's classes are archived.
const trainingSource = "package advertest.training;\npublic class Warm {\n  static int f(int n) { int s = 0; for (int i = 0; i < n; i++) { s += i; } return s; }\n}\n"

// cdsTrainingRuns numbers this process's CDS training runs.
var cdsTrainingRuns atomic.Int64

// makeCDSArchive runs one worker with -XX:ArchiveClassesAtExit (without the agent, which dumping
// does not allow), compiles a class in it and lets it exit; the archive is written to a temporary
// file and renamed into place.
func makeCDSArchive(ctx context.Context, spec *launchSpec, scratch string) error {
	if fileExists(spec.cds.archive) {
		return nil
	}
	// Unique per training run: two pools of one process may train at once (modules opened in
	// parallel); the rename below lets the last one win with an archive as good.
	tmp := fmt.Sprintf("%s.tmp-%d-%d", spec.cds.archive, os.Getpid(), cdsTrainingRuns.Add(1))
	defer os.Remove(tmp)
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return fmt.Errorf("harness: CDS training run: %w", err)
	}
	defer os.RemoveAll(scratch)
	// The training run runs only the worker's own code, outside the sandbox: it writes the
	// archive into the cache, which workers see read-only at the same path (an archive checks
	// the class path's paths and modification times, so it maps inside too).
	box := sandbox.Spec{Policy: spec.sandbox.Policy, Scratch: scratch}
	w, err := spawn(workerCommand{Path: spec.java, Args: append([]string{"-XX:ArchiveClassesAtExit=" + tmp}, spec.cds.args...),
		Env: os.Environ(), Sandbox: box}, scratch)
	if err != nil {
		return fmt.Errorf("harness: start CDS training run: %w", err)
	}
	defer w.kill()
	init := initRequest{LibraryClasspath: []string{}, ProjectClassDirs: []string{}, Release: "11", CompilerArgs: []string{}, ScratchDir: scratch}
	compile := compileRequest{Sources: []wireSource{{ClassName: "advertest.training.Warm", Text: trainingSource}}}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for id, req := range []request{&init, &compile} {
		if err := w.send(int64(id+1), req); err != nil {
			return fmt.Errorf("harness: CDS training run: %w", err)
		}
		select {
		case line, ok := <-w.lines:
			if !ok {
				return fmt.Errorf("harness: CDS training run ended early: %s", w.output.String())
			}
			var reply replyHead
			if err := decodeDone(line, int64(id+1), &reply); err != nil || reply.Error != "" {
				return fmt.Errorf("harness: CDS training run: %v %s", err, reply.Error)
			}
		case <-ctx.Done():
			return fmt.Errorf("harness: CDS training run: %w", ctx.Err())
		}
	}
	// Closing the request pipe makes the worker exit, which dumps the archive.
	_ = w.requests.Close()
	select {
	case <-w.exited:
	case <-ctx.Done():
		return fmt.Errorf("harness: CDS training run did not exit: %w", ctx.Err())
	}
	if code, out := w.exitInfo(); code != 0 {
		return fmt.Errorf("harness: CDS training run exited with %d: %s", code, out)
	}
	if !fileExists(tmp) {
		return fmt.Errorf("harness: CDS training run wrote no archive: %s", w.output.String())
	}
	return os.Rename(tmp, spec.cds.archive)
}
