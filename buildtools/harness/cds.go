package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cdsSpec says where a worker's dynamic class-data-sharing archive lives and how to make it. The
// archive (JDK 13+) holds the worker's, javac's and ASM's classes as loaded by a training run; it
// brings a worker's start to its first result from about 1.0-1.2 s down to 0.6-0.8 s (PITFALLS).
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

// makeCDSArchive runs one worker with -XX:ArchiveClassesAtExit (without the agent, which dumping
// does not allow), compiles a class in it and lets it exit; the archive is written to a temporary
// file and renamed into place.
func makeCDSArchive(ctx context.Context, java string, spec *cdsSpec) error {
	if fileExists(spec.archive) {
		return nil
	}
	tmp := fmt.Sprintf("%s.tmp-%d", spec.archive, os.Getpid())
	defer os.Remove(tmp)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, java, append([]string{"-XX:ArchiveClassesAtExit=" + tmp}, spec.args...)...)
	cmd.SysProcAttr = workerProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr := newTailBuffer(8 << 10)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("harness: start CDS training run: %w", err)
	}
	reqs := `{"op":"init","id":1,"libraryClasspath":[],"projectClassDirs":[],"release":"11","compilerArgs":[]}` + "\n" +
		`{"op":"compile","id":2,"sources":[{"className":"advertest.training.Warm","text":` + strconv.Quote(trainingSource) + `}]}` + "\n"
	if _, err := stdin.Write([]byte(reqs)); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("harness: CDS training run: %w", err)
	}
	// Wait for the compile's answer, then close stdin: the worker exits and dumps the archive.
	buf := make([]byte, 4096)
	var seen []byte
	for !strings.Contains(string(seen), `"id":2`) {
		n, err := stdout.Read(buf)
		seen = append(seen, buf[:n]...)
		if len(seen) > 1<<16 {
			seen = seen[len(seen)-1024:]
		}
		if err != nil {
			break
		}
	}
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("harness: CDS training run: %w: %s", err, stderr.String())
	}
	if !fileExists(tmp) {
		return fmt.Errorf("harness: CDS training run wrote no archive: %s", stderr.String())
	}
	return os.Rename(tmp, spec.archive)
}
