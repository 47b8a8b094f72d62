package nvim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	rep "github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/state"
)

// waitTimeout bounds each wait of the Lua script on the server (a job's
// diagnostics, a command's answer). It is a deadline, not an expectation;
// ADVERTEST_NVIM_WAIT (a duration, e.g. "30s") overrides it.
var waitTimeout = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("ADVERTEST_NVIM_WAIT")); err == nil && d > 0 {
		return d
	}
	return 4 * time.Minute
}()

// example is the project the tests open, relative to the repository root.
const example = "examples/maven-calculator"

// sourceFile is the Java file of the example, relative to its root.
const sourceFile = "src/main/java/org/acme/PriceCalculator.java"

// repoRoot is the repository root: two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// requireTools skips when the editor or the JVM toolchain is not installed
// (make test-nvim installs them through .ci/install-deps).
func requireTools(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			t.Skipf("%s not installed (.ci/install-deps installs it): %v", name, err)
		}
	}
}

// builtServer is the binary that TestMain's first user builds; tests share it.
var builtServer struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtServer.dir != "" {
		_ = os.RemoveAll(builtServer.dir)
	}
	os.Exit(code)
}

// buildServer builds cmd/advertest once per test binary into a temporary
// folder, or returns $ADVERTEST_TEST_BIN when that names a binary built
// already.
func buildServer(t *testing.T, root string) string {
	t.Helper()
	if bin := os.Getenv("ADVERTEST_TEST_BIN"); bin != "" {
		return bin
	}
	b := &builtServer
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "advertest-nvim-test-"); b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "advertest")
		cmd := exec.Command("go", "build", "-o", b.bin, "./cmd/advertest")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build ./cmd/advertest: %w\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

// copyProject copies a project folder into a new temporary folder, leaving
// out build output and saved state.
func copyProject(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() && path != src && (d.Name() == "target" || d.Name() == "build" || d.Name() == ".gradle" || d.Name() == ".advertest" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	return dst
}

// report is the part of `advertest mutate --json -` the test compares with.
type report struct {
	Target struct {
		File      string `json:"file"`
		Class     string `json:"class"`
		Method    string `json:"method"`
		StartLine int    `json:"startLine"`
		EndLine   int    `json:"endLine"`
	} `json:"target"`
	Mutants []struct {
		ID       string `json:"id"`
		Line     int    `json:"line"`
		Original string `json:"original"`
		Mutated  string `json:"mutated"`
		Status   string `json:"status"`
	} `json:"mutants"`
}

// mutate runs the CLI's mutation analysis on its own copy of the example.
func mutate(t *testing.T, bin, project, source, method string) *report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "mutate", filepath.FromSlash(source), "--method", method, "--json", "-")
	cmd.Dir = project
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("advertest mutate: %v\n%s", err, stderr.String())
	}
	var r report
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("advertest mutate --json -: %v\n%s", err, stdout.String())
	}
	return &r
}

// survivors are the surviving mutants' lines ("26,29") and ids.
func survivors(r *report) (lines string, ids []string) {
	seen := map[int]bool{}
	var ls []int
	for _, m := range r.Mutants {
		if m.Status != "survived" {
			continue
		}
		ids = append(ids, m.ID)
		if !seen[m.Line] {
			seen[m.Line] = true
			ls = append(ls, m.Line)
		}
	}
	sort.Ints(ls)
	sort.Strings(ids)
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = strconv.Itoa(l)
	}
	return strings.Join(parts, ","), ids
}

// scriptResult is what testdata/e2e.lua writes.
type scriptResult struct {
	raw    []byte
	Nvim   string  `json:"nvim"`
	Error  string  `json:"error"`
	Phases []phase `json:"phases"`
}

type phase struct {
	Name          string            `json:"name"`
	OK            bool              `json:"ok"`
	Filetype      string            `json:"filetype"`
	Commands      json.RawMessage   `json:"commands"`
	Answered      bool              `json:"answered"`
	ErrorMessage  string            `json:"error"`
	Result        json.RawMessage   `json:"result"`
	Want          string            `json:"want"`
	Got           string            `json:"got"`
	Diagnostics   []diagnostic      `json:"diagnostics"`
	Lines         map[string]string `json:"lines"`
	Progress      []progress        `json:"progress"`
	ProgressEnded bool              `json:"progress_ended"`
	TestFiles     []string          `json:"test_files"`
	TestFile      string            `json:"test_file"`
	Buffer        string            `json:"buffer"`
	OnDisk        *string           `json:"on_disk"`
	// The verdicts phase: the quick fixes' titles on a survivor, its code, how many related
	// tests its diagnostic carried, and whether Ignore hid it and :AdverTestUnignore brought it back.
	Titles  []string `json:"titles"`
	Code    string   `json:"code"`
	Related int      `json:"related"`
	Hidden  bool     `json:"hidden"`
	Back    bool     `json:"back"`
}

type diagnostic struct {
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity int    `json:"severity"`
	Code     any    `json:"code"`
	Message  string `json:"message"`
}

type progress struct {
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	Message string `json:"message"`
}

// runScript runs testdata/e2e.lua in headless Neovim with the plugin and
// returns what it recorded.
func runScript(t *testing.T, root, bin, project string, env map[string]string) *scriptResult {
	t.Helper()
	plugin := filepath.Join(root, "editors", "nvim")
	resultPath := filepath.Join(t.TempDir(), "result.json")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*waitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "nvim", "--headless", "-n", "-i", "NONE",
		"-u", filepath.Join(plugin, "testdata", "init.lua"),
		"-c", "luafile "+filepath.Join(plugin, "testdata", "e2e.lua"))
	cmd.Dir = project
	cmd.Env = append(os.Environ(),
		// No user configuration, state or logs of the user's Neovim.
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"NVIM_LOG_FILE="+filepath.Join(home, "nvim.log"),
		"ADVERTEST_PLUGIN="+plugin,
		"ADVERTEST_BIN="+bin,
		"ADVERTEST_RESULT="+resultPath,
		"ADVERTEST_TIMEOUT_MS="+strconv.FormatInt(waitTimeout.Milliseconds(), 10),
	)
	if cache, err := os.UserCacheDir(); err == nil {
		cmd.Env = append(cmd.Env, "ADVERTEST_SERVER_CACHE="+cache)
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	// Every process Neovim starts (the server, its JVM workers) inherits the marker.
	marker := "ADVERTEST_NVIM_TEST=" + strconv.FormatInt(time.Now().UnixNano(), 36)
	cmd.Env = append(cmd.Env, marker)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	runErr := cmd.Run()
	checkNothingLeft(t, marker)
	logServerStderr(t, filepath.Join(home, "cache", "nvim", "lsp.log"))
	data, err := os.ReadFile(resultPath)
	if err != nil {
		t.Fatalf("nvim wrote no result (%v): %v\n%s", runErr, err, output.String())
	}
	var res scriptResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("result %s: %v", data, err)
	}
	res.raw = data
	if res.Error != "" || runErr != nil {
		t.Fatalf("the Lua script failed (%v): %s\n%s", runErr, res.Error, output.String())
	}
	t.Logf("nvim %s", res.Nvim)
	return &res
}

// checkNothingLeft fails when a process with the marker in its environment
// (the server or a JVM it started) outlives Neovim's exit by more than a
// few seconds, and kills it.
func checkNothingLeft(t *testing.T, marker string) {
	t.Helper()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Logf("no /proc: not checking for processes left behind")
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	ticker := time.NewTicker(100 * time.Millisecond)
	defer ticker.Stop()
	for {
		left := processesWith(marker)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for pid, cmdline := range left {
				t.Errorf("process %d outlived Neovim: %s", pid, cmdline)
				if p, err := os.FindProcess(pid); err == nil {
					_ = p.Kill()
				}
			}
			return
		}
		<-ticker.C
	}
}

// logServerStderr logs what the server wrote on stderr: Neovim's lsp.log
// records each such line at ERROR level (docs/architecture.md, "Traps"), so the server should be
// quiet by default.
func logServerStderr(t *testing.T, lspLog string) {
	t.Helper()
	data, err := os.ReadFile(lspLog)
	if err != nil {
		return
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, `"stderr"`) {
			n++
			if n <= 10 {
				t.Logf("server stderr (in lsp.log): %s", line)
			}
		}
	}
	if n > 10 {
		t.Logf("… %d stderr lines in all", n)
	}
}

// processesWith maps the pids whose environment holds marker to their command lines.
func processesWith(marker string) map[int]string {
	out := map[int]string{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, []byte(marker+"\x00")) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out[pid] = strings.TrimSpace(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
	}
	return out
}

func (r *scriptResult) phase(t *testing.T, name string) *phase {
	t.Helper()
	for i := range r.Phases {
		if r.Phases[i].Name == name {
			return &r.Phases[i]
		}
	}
	t.Fatalf("the script did not reach phase %q; it recorded %s", name, r.describe())
	return nil
}

// describe is the script's record as it wrote it.
func (r *scriptResult) describe() string {
	var out bytes.Buffer
	if err := json.Indent(&out, r.raw, "", "  "); err != nil {
		return string(r.raw)
	}
	return out.String()
}

// checkAttached fails unless the plugin started the server for the Java
// buffer and the server announced its commands.
func checkAttached(t *testing.T, res *scriptResult) {
	t.Helper()
	attach := res.phase(t, "attach")
	if !attach.OK {
		t.Fatalf("the advertest client never attached to the Java buffer (filetype %q)", attach.Filetype)
	}
	if attach.Filetype != "java" {
		t.Errorf("filetype = %q, want java", attach.Filetype)
	}
	for _, id := range []string{"advertest.generateTests", "advertest.analyzeMutants"} {
		if !bytes.Contains(attach.Commands, []byte(strconv.Quote(id))) {
			t.Errorf("executeCommandProvider %s lacks %s", attach.Commands, id)
		}
	}
}

// TestCommandsReachTheServer: the plugin starts the server for a Java buffer,
// and both method commands at the cursor are answered without an error; at a
// line outside any method the server's error reaches the plugin.
func TestCommandsReachTheServer(t *testing.T) {
	requireTools(t, "nvim", "go")
	root := repoRoot(t)
	bin := buildServer(t, root)
	project := copyProject(t, filepath.Join(root, example))
	res := runScript(t, root, bin, project, map[string]string{
		"ADVERTEST_PHASES":  "commands",
		"ADVERTEST_FILE":    filepath.Join(project, sourceFile),
		"ADVERTEST_LINE":    strconv.Itoa(lineOf(t, filepath.Join(project, sourceFile), "if (lo > hi) {")),
		"ADVERTEST_OUTSIDE": "1",
	})
	checkAttached(t, res)
	for _, name := range []string{"analyze", "generate"} {
		p := res.phase(t, name)
		if !p.Answered || p.ErrorMessage != "" {
			t.Errorf("%s: answered %v, error %q", name, p.Answered, p.ErrorMessage)
		}
		if !bytes.Contains(p.Result, []byte(`"job"`)) && !bytes.Contains(p.Result, []byte(`"clamp"`)) {
			t.Errorf("%s: result %s has neither a job nor the target clamp", name, p.Result)
		}
	}
	outside := res.phase(t, "outside")
	if !outside.Answered || !strings.Contains(outside.ErrorMessage, "no method") {
		t.Errorf("a command on line 1: answered %v, error %q; want an error saying there is no method", outside.Answered, outside.ErrorMessage)
	}
}

// lineOf is the 1-based line of the first line of file containing text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, text)
	return 0
}

// TestAnalyzeAndGenerate is the end-to-end run a user makes: :AdverTestAnalyze
// in a method puts the surviving mutants (the same as `advertest mutate`
// finds) on their lines through vim.diagnostic; :AdverTestGenerate ends with
// the generated test class created. It runs on a copy of
// examples/maven-calculator's clamp, or of any project:
// ADVERTEST_NVIM_PROJECT (a folder), ADVERTEST_NVIM_SOURCE (a Java file in it,
// relative) and ADVERTEST_NVIM_METHOD (a method name as `advertest mutate
// --method` takes it).
func TestAnalyzeAndGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the JVM: not in -short")
	}
	requireTools(t, "nvim", "go", "java")
	root := repoRoot(t)
	bin := buildServer(t, root)
	projectDir, source, method := filepath.Join(root, example), sourceFile, "clamp"
	if dir := os.Getenv("ADVERTEST_NVIM_PROJECT"); dir != "" {
		projectDir, source, method = dir, os.Getenv("ADVERTEST_NVIM_SOURCE"), os.Getenv("ADVERTEST_NVIM_METHOD")
		if source == "" || method == "" {
			t.Fatal("ADVERTEST_NVIM_PROJECT needs ADVERTEST_NVIM_SOURCE and ADVERTEST_NVIM_METHOD")
		}
	}

	// The expectation comes from the CLI on a copy of its own, so that the
	// server cannot resume from the CLI's saved state.
	want := mutate(t, bin, copyProject(t, projectDir), source, method)
	wantLines, wantIDs := survivors(want)
	if wantLines == "" {
		t.Fatalf("advertest mutate found no surviving mutant in %s: nothing to compare (%d mutants)", method, len(want.Mutants))
	}

	project := copyProject(t, projectDir)
	file := filepath.Join(project, filepath.FromSlash(source))
	// An earlier run's search found one survivor likely equivalent: the analysis shows it as
	// a hint with the evidence.
	hinted := wantIDs[len(wantIDs)-1]
	const evidence = "212 inputs reached this line, 14 changed its value, none changed the result"
	injectEvidence(t, project, want, hinted, evidence)
	// The suite of class C is CAdverTest in C's package, under a test source root.
	topLevel, _, _ := strings.Cut(want.Target.Class, "$")
	testSuffix := filepath.FromSlash("/"+strings.ReplaceAll(topLevel, ".", "/")) + "AdverTest.java"
	res := runScript(t, root, bin, project, map[string]string{
		"ADVERTEST_PHASES":      "e2e",
		"ADVERTEST_FILE":        file,
		"ADVERTEST_LINE":        strconv.Itoa(min(want.Target.StartLine+1, want.Target.EndLine)),
		"ADVERTEST_EXPECT":      wantLines,
		"ADVERTEST_TEST_SUFFIX": testSuffix,
	})
	checkAttached(t, res)

	analyze := res.phase(t, "analyze")
	if len(analyze.Diagnostics) == 0 {
		t.Fatalf(":AdverTestAnalyze: no diagnostics, want them on lines %q (advertest mutate's surviving mutants)\n%s", wantLines, res.describe())
	}
	// Each diagnostic is one of mutate's surviving mutants, on its line; every survivor has one.
	// A mutant that timed out in the CLI run (a loaded machine) may survive in the server's.
	byID := map[string]int{}
	for i, m := range want.Mutants {
		byID[m.ID] = i
	}
	var gotIDs []string
	seen := map[string]bool{}
	for _, d := range analyze.Diagnostics {
		if d.Code == "possible-bug" {
			continue
		}
		code, _ := d.Code.(string)
		gotIDs = append(gotIDs, code)
		seen[code] = true
		i, ok := byID[code]
		switch {
		case !ok:
			t.Errorf("line %d: diagnostic code %v is none of advertest mutate's mutant ids", d.Line, d.Code)
		case want.Mutants[i].Status == "timeout":
			t.Logf("line %d: mutant %s survives in the server, timed out in the CLI", d.Line, code)
		case want.Mutants[i].Status != "survived":
			t.Errorf("line %d: mutant %s has a diagnostic, but advertest mutate says %s", d.Line, code, want.Mutants[i].Status)
		}
		if ok && want.Mutants[i].Line != d.Line {
			t.Errorf("mutant %s: diagnostic on line %d, want line %d", code, d.Line, want.Mutants[i].Line)
		}
		switch {
		case code == hinted:
			if d.Severity != 4 || !strings.Contains(d.Message, "probably equivalent: "+evidence) {
				t.Errorf("line %d: the likely-equivalent survivor has severity %d, message %q; want 4 (HINT) and the evidence", d.Line, d.Severity, d.Message)
			}
		case d.Severity != 2:
			t.Errorf("line %d: severity %d, want 2 (vim.diagnostic.severity.WARN)", d.Line, d.Severity)
		}
		text := analyze.Lines[strconv.Itoa(d.Line)]
		if indent := len(text) - len(strings.TrimLeft(text, " \t")); d.Col != indent {
			t.Errorf("line %d: the range starts at column %d, want %d (the code without its indentation)", d.Line, d.Col, indent)
		}
		if !strings.Contains(d.Message, "survives") {
			t.Errorf("line %d: message %q does not say the mutant survives", d.Line, d.Message)
		}
	}
	for _, id := range wantIDs {
		if !seen[id] {
			m := want.Mutants[byID[id]]
			t.Errorf("surviving mutant %s (line %d, %q → %q) has no diagnostic; diagnostics on lines %q, want %q", id, m.Line, strings.TrimSpace(m.Original), strings.TrimSpace(m.Mutated), analyze.Got, wantLines)
		}
	}
	if !analyze.ProgressEnded {
		t.Errorf(":AdverTestAnalyze: no $/progress end reached the plugin (progress seen: %+v)", analyze.Progress)
	}

	v := res.phase(t, "verdicts")
	if got := strings.Join(v.Titles, "|"); got != "Generate a test that kills this mutant|Mark as equivalent|Ignore this mutant" {
		t.Errorf("quick fixes on mutant %s: %q", v.Code, got)
	}
	var answer struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(v.Result, &answer)
	if v.ErrorMessage != "" || answer.Status != "ignored" || !v.Hidden || !v.Back {
		t.Errorf("Ignore this mutant %s: answer %s, error %q, hidden %v, shown again by :AdverTestUnignore %v", v.Code, v.Result, v.ErrorMessage, v.Hidden, v.Back)
	}
	if v.Related == 0 {
		t.Errorf("the diagnostic of %s reached vim.diagnostic without relatedInformation (the tests covering its line)", v.Code)
	}

	gen := res.phase(t, "generate")
	if !gen.OK {
		t.Fatalf(":AdverTestGenerate: no workspace edit created a file ending in %s (edited test files: %v)", testSuffix, gen.TestFiles)
	}
	testFile := gen.TestFile
	if !strings.HasPrefix(testFile, project+string(filepath.Separator)) {
		t.Errorf("the test file %s is outside the project %s", testFile, project)
	}
	className := strings.TrimSuffix(filepath.Base(testSuffix), ".java")
	if !strings.Contains(gen.Buffer, "class "+className) {
		t.Errorf("the test file's buffer lacks the class %s:\n%s", className, gen.Buffer)
	}
	if gen.OnDisk == nil || *gen.OnDisk != gen.Buffer {
		t.Errorf("the plugin's save_tests did not write the buffer to %s", testFile)
	}
	if !gen.ProgressEnded {
		t.Errorf(":AdverTestGenerate: no $/progress end reached the plugin")
	}
	// testdata/init.lua sets rounds = 1: the server must have read the plugin's settings. The
	// state it saved says how many rounds the job played (the initial moves and one T); the
	// progress, where it names the rounds, says the same.
	if got := savedRounds(t, project, want.Target.Class, want.Target.Method); got != 2 {
		t.Errorf("the saved state has %d rounds, want 2 (the initial moves and T: the plugin's setting rounds = 1)", got)
	}
	for _, p := range gen.Progress {
		if m := roundsPattern.FindStringSubmatch(p.Message); m != nil && m[1] != "1" {
			t.Errorf("progress %q: the job plays %s rounds, want the plugin's setting rounds = 1", p.Message, m[1])
			break
		}
	}
	t.Logf("analyze: diagnostics on lines %s (%d mutant ids); progress: %s", analyze.Got, len(gotIDs), lastProgress(analyze.Progress))
	t.Logf("generate: %s, %d bytes; diagnostics left on %d lines", testFile, len(gen.Buffer), len(gen.Diagnostics))
}

// savedRounds is the number of rounds in the report of the generateTests state the server
// saved for the method in the project's .advertest/ (-1 when there is none).
func savedRounds(t *testing.T, project, class, method string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(project, ".advertest", "methods", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Kind   string `json:"kind"`
			Report struct {
				Target struct{ Class, Method string } `json:"target"`
				Rounds []json.RawMessage              `json:"rounds"`
			} `json:"report"`
		}
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if st.Kind == "generateTests" && st.Report.Target.Class == class && st.Report.Target.Method == method {
			return len(st.Report.Rounds)
		}
	}
	return -1
}

// roundsPattern finds the number of rounds in a progress message ("round 1/5 · …").
var roundsPattern = regexp.MustCompile(`round \d+/(\d+)`)

// lastProgress is the last progress message, as the user last saw it.
func lastProgress(ps []progress) string {
	if len(ps) == 0 {
		return "none"
	}
	p := ps[len(ps)-1]
	return p.Kind + " " + p.Title + ": " + p.Message
}

// TestPluginLogic checks the plugin's own logic (settings encoding, command
// line, progress text, edited files, root folder, the client config) in
// headless Neovim, without a server.
func TestPluginLogic(t *testing.T) {
	requireTools(t, "nvim")
	root := repoRoot(t)
	plugin := filepath.Join(root, "editors", "nvim")
	project := copyProject(t, filepath.Join(root, example))
	resultPath := filepath.Join(t.TempDir(), "result")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "nvim", "--headless", "-n", "-i", "NONE", "-u", "NONE",
		"-c", "luafile "+filepath.Join(plugin, "testdata", "unit.lua"))
	cmd.Dir = project
	cmd.Env = append(os.Environ(),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"NVIM_LOG_FILE="+filepath.Join(home, "nvim.log"),
		"ADVERTEST_PLUGIN="+plugin,
		"ADVERTEST_PROJECT="+project,
		"ADVERTEST_RESULT="+resultPath,
	)
	out, runErr := cmd.CombinedOutput()
	data, err := os.ReadFile(resultPath)
	if err != nil {
		t.Fatalf("nvim wrote no result (%v): %v\n%s", runErr, err, out)
	}
	if string(data) != "ok" || runErr != nil {
		t.Fatalf("unit.lua (%v): %s\n%s", runErr, data, out)
	}
}

// injectEvidence writes the evidence of an equivalence judge for the mutant id of the
// method's report into the project's .advertest/, as an earlier run leaves it.
func injectEvidence(t *testing.T, project string, r *report, id, evidence string) {
	t.Helper()
	for _, m := range r.Mutants {
		if m.ID != id {
			continue
		}
		mu := rep.Mutant{ID: m.ID, Line: m.Line, Original: m.Original, Mutated: m.Mutated}
		err := state.Open(project).UpdateVerdicts(func(v *state.Verdicts) bool {
			v.SetEvidence(mu, r.Target.Class, "", &rep.Equivalence{Verdict: rep.VerdictLikelyEquivalent, By: "search", Evidence: evidence}, time.Now())
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("no mutant %s in the report", id)
}
