package handlers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

// BenchmarkBusyServer measures, on a copy of the Maven example with a 5,000-line file open:
// code-action and hover latency (p50, p95) while a generateTests job runs against the idle
// server; how long a cancel takes to end the job; and the time from a save to the updated
// diagnostics (onSave analyze) against a full re-run of the same method (generateTests with the
// default 5 rounds); and a second analysis of the method on the warm project. One iteration is
// the whole scenario. Run:
//
//	go test -run '^$' -bench BusyServer -benchtime 1x ./handlers/
func BenchmarkBusyServer(b *testing.B) {
	for i := 0; i < b.N; i++ {
		busyScenario(b)
	}
}

func busyScenario(b *testing.B) {
	module := buildtest.CopyExample(b, "maven-calculator")
	srcPath := filepath.Join(module, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	data, err := os.ReadFile(srcPath)
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	uri := "file://" + srcPath
	big, methods := bigJava(5000)
	bigURI := "file://" + filepath.Join(module, "src", "main", "java", "org", "acme", "big", "Big.java")
	s := startSession(b, module, map[string]any{"agents": "offline", "onSaveDelayMs": 0}, editorCaps())
	openDoc(s.c, uri, "java", text)
	openDoc(s.c, bigURI, "java", big)

	measure := func(samples int) (actions, hovers []time.Duration) {
		for i := 0; i < samples; i++ {
			line := methodLine((i * 37) % methods)
			start := time.Now()
			var out []json.RawMessage
			if err := s.c.Call("textDocument/codeAction", codeActionParams(bigURI, line, 8), &out); err != nil || len(out) != 2 {
				b.Fatalf("codeAction: %d, %v", len(out), err)
			}
			actions = append(actions, time.Since(start))
			start = time.Now()
			if err := s.c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 31, "character": 10}}, nil); err != nil {
				b.Fatalf("hover: %v", err)
			}
			hovers = append(hovers, time.Since(start))
		}
		return
	}
	clamp := map[string]any{"uri": uri, "position": map[string]any{"line": 28, "character": 12}}

	// A first analysis warms the project (Maven model, JVMs) and gives hover something to show.
	from := s.mark()
	res := s.command("advertest.analyzeMutants", clamp)
	s.waitEnd(from, res["job"].(string))

	// A second analysis of the same method on the warm project: what a user waits for when
	// they ask again (compared with `mvn test` per mutant in README's Benchmarks).
	from = s.mark()
	start := time.Now()
	res = s.command("advertest.analyzeMutants", clamp)
	s.waitEnd(from, res["job"].(string))
	b.ReportMetric(float64(time.Since(start).Milliseconds()), "second-analyze-ms")

	idleActions, idleHovers := measure(400)

	// The full run of the method, with the default 5 rounds; measured while it runs.
	from = s.mark()
	start = time.Now()
	res = s.command("advertest.generateTests", clamp)
	job := res["job"].(string)
	// Ten samples after each message the server sends while the job runs, so that they spread
	// over the whole run (project, T's exploration, the JVM runs).
	var busyActions, busyHovers []time.Duration
	for !s.ended(from, job) {
		next := s.mark()
		a, h := measure(10)
		busyActions, busyHovers = append(busyActions, a...), append(busyHovers, h...)
		s.waitFrom(next, "the next message", func(lsptest.Message) bool { return true })
	}
	b.ReportMetric(float64(len(busyActions)), "busy-samples")
	rerun := time.Since(start)

	// Save after an edit of the method: the on-save analysis updates the diagnostics.
	lines := strings.Split(text, "\n")
	lines[31] = "        if (hi < value) {"
	change(s, uri, 2, 31, 12, 31, 22, "hi < value")
	if err := os.WriteFile(srcPath, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		b.Fatal(err)
	}
	from = s.mark()
	start = time.Now()
	s.c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	s.waitDiagnostics(from, uri, "the on-save diagnostics", func(ds []diagnostic) bool {
		return withMessage(ds, "`hi < value` → `hi <= value`") != nil
	})
	save := time.Since(start)

	// Cancel a running job from its progress: the time to its end.
	from = s.mark()
	res = s.command("advertest.generateTests", map[string]any{"uri": uri, "position": map[string]any{"line": 91, "character": 8}})
	job = res["job"].(string)
	s.waitFrom(from, "a report of the job to cancel", func(m lsptest.Message) bool {
		tok, v, ok := progressOf(m)
		return ok && tok == "advertest/job/"+job && v.Kind == "report" && strings.Contains(v.Message, "evaluating")
	})
	start = time.Now()
	s.c.Notify("window/workDoneProgress/cancel", map[string]any{"token": "advertest/job/" + job})
	if end, _ := s.waitEnd(from, job); end.Message != "canceled" {
		b.Fatalf("end %q", end.Message)
	}
	cancel := time.Since(start)
	s.shutdown()

	pct := func(ds []time.Duration, p float64) float64 {
		c := append([]time.Duration(nil), ds...)
		sortDurations(c)
		return float64(c[int(p*float64(len(c)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(idleActions, 0.5), "idle-action-p50-ms")
	b.ReportMetric(pct(idleActions, 0.95), "idle-action-p95-ms")
	b.ReportMetric(pct(busyActions, 0.5), "busy-action-p50-ms")
	b.ReportMetric(pct(busyActions, 0.95), "busy-action-p95-ms")
	b.ReportMetric(pct(idleHovers, 0.5), "idle-hover-p50-ms")
	b.ReportMetric(pct(idleHovers, 0.95), "idle-hover-p95-ms")
	b.ReportMetric(pct(busyHovers, 0.5), "busy-hover-p50-ms")
	b.ReportMetric(pct(busyHovers, 0.95), "busy-hover-p95-ms")
	b.ReportMetric(float64(cancel.Microseconds())/1000, "cancel-ms")
	b.ReportMetric(float64(save.Milliseconds()), "save-to-diagnostics-ms")
	b.ReportMetric(float64(rerun.Milliseconds()), "full-rerun-ms")
	b.ReportMetric(save.Seconds()/rerun.Seconds(), "save/rerun")
}

// ended reports whether the job's progress has ended by now.
func (s *session) ended(from int, job string) bool {
	for _, m := range s.c.FromServer()[from:] {
		if tok, v, ok := progressOf(m); ok && tok == "advertest/job/"+job && v.Kind == "end" {
			return true
		}
	}
	return false
}

func sortDurations(ds []time.Duration) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j] < ds[j-1]; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}
