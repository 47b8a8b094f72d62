package handlers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
)

// searchHint is the Hint of a survivor that the offline search found likely equivalent: the
// counts of its probes at the mutated expression (loop/offline/infect.go).
var searchHint = regexp.MustCompile(`survives, probably equivalent: \d+ inputs reached this line, \d+ changed its value, none changed the result \(the search for inputs\)$`)

// TestSearchEvidenceAsHints: generateTests with the offline agents on the example's clamp. The
// two boundary survivors (`value < lo` → `value <= lo`, `value > hi` → `value >= hi`: the same
// value is returned at the boundary) come out likely equivalent by search, as Hints with the
// infection counts, and are kept in verdicts.json; a restarted server's Analyze mutants, which
// runs no agent, shows the same Hints from there.
func TestSearchEvidenceAsHints(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Maven and JVMs")
	}
	module := buildtest.CopyExample(t, "maven-calculator")
	srcPath := filepath.Join(module, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	data, err := os.ReadFile(srcPath)
	if err != nil {
		t.Fatal(err)
	}
	uri := "file://" + srcPath
	pos := map[string]any{"uri": uri, "position": map[string]any{"line": 28, "character": 12}}
	hints := func(ds []diagnostic) map[string]string {
		out := map[string]string{}
		for _, d := range ds {
			if d.Severity == 4 && searchHint.MatchString(d.Message) {
				out[d.Message[:strings.Index(d.Message, " survives")]] = d.Message
			}
		}
		return out
	}
	want := []string{"`value < lo` → `value <= lo`", "`value > hi` → `value >= hi`"}

	s := startSession(t, module, map[string]any{"agents": "offline", "rounds": 1}, editorCaps())
	openDoc(s.c, uri, "java", string(data))
	from := s.mark()
	res := s.command("advertest.generateTests", pos)
	end, _ := s.waitEnd(from, res["job"].(string))
	if !strings.Contains(end.Message, "probably equivalent") {
		t.Errorf("end %q does not count the probably equivalent survivors", end.Message)
	}
	got := hints(s.latestDiagnostics(uri))
	for _, w := range want {
		if got[w] == "" {
			t.Errorf("no search Hint for %s; diagnostics: %+v", w, s.latestDiagnostics(uri))
		}
	}
	t.Logf("hints: %v", got)
	v, err := os.ReadFile(filepath.Join(module, ".advertest", "verdicts.json"))
	if err != nil || strings.Count(string(v), `"by": "search"`) < 2 || !strings.Contains(string(v), "none changed the result") {
		t.Errorf("the search's evidence is not in verdicts.json: %v\n%s", err, v)
	}
	s.shutdown()

	// Analyze mutants runs no agent: the Hints come from the stored evidence.
	s = startSession(t, module, map[string]any{"agents": "offline"}, editorCaps())
	openDoc(s.c, uri, "java", string(data))
	from = s.mark()
	res = s.command("advertest.analyzeMutants", pos)
	if end, _ := s.waitEnd(from, res["job"].(string)); strings.Contains(end.Message, "failed") {
		t.Fatalf("analyze: %q", end.Message)
	}
	again := hints(s.latestDiagnostics(uri))
	for _, w := range want {
		if again[w] != got[w] {
			t.Errorf("after Analyze mutants: %q, want %q", again[w], got[w])
		}
	}
	s.shutdown()
}
