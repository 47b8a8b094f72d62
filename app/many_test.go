package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/settings"
)

// batchRecorder records a batch's events.
type batchRecorder struct {
	mu       sync.Mutex
	finished []string
	counts   []int
	suites   []SuiteFile
	warnings []string
	refuse   error
	// stallFirst delays the first Finished before it records, so that a count told out of
	// its lock would be overtaken by the other file's.
	stallFirst time.Duration
}

func (b *batchRecorder) Method(*Method) Events { return &warnings{} }

func (b *batchRecorder) Finished(o MethodOutcome, done, total int) {
	if done == 1 {
		time.Sleep(b.stallFirst)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.finished = append(b.finished, o.Method.Key())
	b.counts = append(b.counts, done*100+total)
}

func (b *batchRecorder) Suite(_ context.Context, f SuiteFile) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.suites = append(b.suites, f)
	return b.refuse
}

func (b *batchRecorder) Warning(w Warning) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.warnings = append(b.warnings, w.Message)
}

// batchFixture is two modules: a/ with the files P.java (three methods) and Q.java (one), b/
// with R.java (two), resolved as a folder.
func batchFixture(t *testing.T) []*Method {
	t.Helper()
	dir := t.TempDir()
	method := func(name string) string {
		return fmt.Sprintf("    int %s(int x) {\n        return x;\n    }\n\n", name)
	}
	writeFiles(t, dir, map[string]string{
		"a/pom.xml":                   "<project/>",
		"a/src/main/java/p/P.java":    "package p;\npublic class P {\n" + method("p1") + method("p2") + method("p3") + "}\n",
		"a/src/main/java/p/Q.java":    "package p;\npublic class Q {\n" + method("q1") + "}\n",
		"b/build.gradle":              "",
		"b/src/main/java/r/R.java":    "package r;\npublic class R {\n" + method("r1") + method("r2") + "}\n",
		"b/src/main/java/r/Skip.java": "package r;\ninterface Skip {\n    int s();\n}\n",
	})
	res, err := conventional(nil).Resolve(context.Background(), Targets{Specs: []TargetSpec{{Path: dir}}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Methods
}

// TestBatchOrderAndSuites: each module's project opens once; the files run in parallel and
// the methods of one file in turn, by line; each method's game starts from the suite its
// class's earlier methods grew; each class's tests are offered once, after its last method,
// with every method's tests merged; Finished counts every method once.
func TestBatchOrderAndSuites(t *testing.T) {
	methods := batchFixture(t)
	if len(methods) != 6 {
		t.Fatalf("fixture: %d methods", len(methods))
	}
	var opened, closed atomic.Int32
	c := New(Options{Open: countingOpen(&opened, &closed)})
	s := settings.Default(noEnv)
	s.Workers = 2

	var mu sync.Mutex
	var order []string
	starts := map[string]string{} // method → the suite its game started from
	running, most := 0, 0
	play := func(ctx context.Context, req Request, ev Events) (*Result, error) {
		name := req.Method.Name()
		mu.Lock()
		order = append(order, name)
		starts[name] = string(req.Suite)
		running++
		most = max(most, running)
		mu.Unlock()
		defer func() { mu.Lock(); running--; mu.Unlock() }()
		lease, err := c.lease(ctx, req.Method.Target.File, req.Settings, ev)
		if err != nil {
			return nil, err
		}
		defer lease.Release()
		ev.Warning(Warning{Message: "the same warning from every method"})
		text := string(req.Suite)
		if text == "" {
			text = loop.Marker + "\n"
		}
		text += name + "Test\n"
		tag := name
		if err := ev.Suite(ctx, SuiteFile{Path: "/t/" + req.Method.Target.Method.TopLevelClass, Text: text, Writable: true, Tests: 1,
			Merge: func(cur []byte) (string, error) { return string(cur) + tag + "Test\n", nil }}); err != nil {
			t.Errorf("the batch refused a method's suite: %v", err)
		}
		return &Result{Report: &report.Report{Target: req.Method.Target.ReportTarget("")}, NewTests: 1}, nil
	}
	rec := &batchRecorder{stallFirst: 50 * time.Millisecond}
	outcomes := c.runBatch(context.Background(), Batch{Methods: methods, Settings: s}, rec, play)

	if opened.Load() != 2 {
		t.Errorf("opened %d projects; want one per module (2)", opened.Load())
	}
	if err := c.Close(context.Background()); err != nil || closed.Load() != 2 {
		t.Errorf("close: %v, %d closed", err, closed.Load())
	}
	if most > 2 || most < 1 {
		t.Errorf("%d methods ran at once; want at most the 2 workers", most)
	}
	for _, o := range outcomes {
		if !o.Finished() {
			t.Errorf("%s: %v", o.Method.Key(), o.Err)
		}
	}
	pos := func(n string) int { return slices.Index(order, n) }
	if !(pos("p1") < pos("p2") && pos("p2") < pos("p3") && pos("r1") < pos("r2")) {
		t.Errorf("order %q: the methods of a file must run in turn, by line", order)
	}
	if starts["p1"] != "" || starts["p2"] != loop.Marker+"\np1Test\n" || starts["p3"] != loop.Marker+"\np1Test\np2Test\n" || starts["r2"] != loop.Marker+"\nr1Test\n" {
		t.Errorf("the suites the games started from: %q", starts)
	}
	if len(rec.finished) != 6 || !slices.Equal(rec.counts, []int{106, 206, 306, 406, 506, 606}) {
		t.Errorf("finished %q with counts %v", rec.finished, rec.counts)
	}
	byPath := map[string]SuiteFile{}
	for _, f := range rec.suites {
		byPath[f.Path] = f
	}
	p := byPath["/t/p.P"]
	if len(rec.suites) != 3 || p.Tests != 3 || p.Text != loop.Marker+"\np1Test\np2Test\np3Test\n" || !strings.Contains(p.For, "p.P") {
		t.Fatalf("suites %+v; want one per class, P's with its 3 methods' tests", rec.suites)
	}
	if merged, err := p.Merge([]byte("edited\n")); err != nil || merged != "edited\np1Test\np2Test\np3Test\n" {
		t.Errorf("P's merge into a newer text: %q, %v", merged, err)
	}
	if len(rec.warnings) != 0 {
		t.Errorf("batch warnings %q", rec.warnings)
	}

	// A refused suite is a warning of the batch.
	rec = &batchRecorder{refuse: errors.New("read-only")}
	c = New(Options{Open: countingOpen(&opened, &closed)})
	defer c.Close(context.Background())
	c.runBatch(context.Background(), Batch{Methods: methods[:1], Settings: s}, rec, play)
	if len(rec.warnings) != 1 || !strings.Contains(rec.warnings[0], "read-only") || !strings.Contains(rec.warnings[0], "tests.source") {
		t.Errorf("warnings %q", rec.warnings)
	}
}

// TestBatchFailuresAndInterruption: a module whose project does not open fails its methods
// without another try, the other module's run; an interruption keeps what finished, and the
// methods it stopped carry context.Canceled.
func TestBatchFailuresAndInterruption(t *testing.T) {
	methods := batchFixture(t)
	var opens atomic.Int32
	failing := filepath.Join("b", "src")
	c := New(Options{Open: func(_ context.Context, file string, _ settings.Settings) (*Warm, error) {
		opens.Add(1)
		if strings.Contains(file, failing) {
			return nil, errors.New("the build is broken")
		}
		return &Warm{closeProject: func() error { return nil }}, nil
	}})
	defer c.Close(context.Background())
	s := settings.Default(noEnv)
	s.Workers = 1
	analyze := func(context.Context, Request, Events) (*Result, error) {
		return &Result{Report: &report.Report{}}, nil
	}
	outcomes := c.runBatch(context.Background(), Batch{Methods: methods, Settings: s}, &batchRecorder{}, analyze)
	if opens.Load() != 2 {
		t.Errorf("%d openings; want 2 (the broken module once)", opens.Load())
	}
	for _, o := range outcomes {
		broken := strings.Contains(o.Method.Target.File, failing)
		if broken != (o.Err != nil) || (broken && !strings.Contains(o.Err.Error(), "the build is broken")) || o.Finished() == broken {
			t.Errorf("%s: %v", o.Method.Key(), o.Err)
		}
	}

	// Interrupted during the second method: the first keeps its result.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	stopping := func(ctx context.Context, req Request, _ Events) (*Result, error) {
		n++
		if n == 2 {
			cancel()
			return &Result{Report: &report.Report{}}, ctx.Err()
		}
		return &Result{Report: &report.Report{}}, nil
	}
	rec := &batchRecorder{}
	outcomes = c.runBatch(ctx, Batch{Methods: methods[:4], Settings: s}, rec, stopping)
	if n != 2 || !outcomes[0].Finished() || !outcomes[1].Interrupted() || !outcomes[2].Interrupted() || !outcomes[3].Interrupted() {
		for _, o := range outcomes {
			t.Logf("%s: finished %v, %v", o.Method.Key(), o.Finished(), o.Err)
		}
		t.Errorf("%d runs; want the first finished and the rest interrupted", n)
	}
	if len(rec.finished) != 2 {
		t.Errorf("finished %q; want the two methods that ran", rec.finished)
	}
}
