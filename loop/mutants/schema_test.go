package mutants

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/internal/testenv"
)

// The corpus test of mutant schemata: every method of the corpus gets its schema, javac's
// errors drop the sites on their lines as the engine does, and every mutant left in a schema
// must compile alone (so a mutant uncompilable alone still comes out uncompilable). It logs the
// (operator, context) pairs it proved.
func TestSchemaCompilesOnlyWhatCompilesAlone(t *testing.T) {
	testenv.NeedsJVM(t)
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("javac not on PATH")
	}
	src := readCorpus(t)
	methods := allMutants(t, src)
	// A control that does not compile alone and must not stay in a schema.
	control := Mutant{ID: "control", Line: 24, Original: "            return lo;", Mutated: `            return "lo";`, Origin: OriginRule, Operator: "RET"}
	for _, m := range rawMethods(t, src) {
		if lines := splitLines(src); lineOf(lines, m.start) < control.Line && lineOf(lines, m.end) > control.Line {
			methods[m.name] = append(methods[m.name], control)
		}
	}
	names := make([]string, 0, len(methods))
	total := 0
	for name := range methods {
		names = append(names, name)
		total += len(methods[name])
	}
	sort.Strings(names)
	dir := t.TempDir()
	hook, err := os.ReadFile("../../buildtools/harness/java/advertest/worker/hook/Mutant.java")
	if err != nil {
		t.Fatal(err)
	}
	hookFile := filepath.Join(dir, "advertest", "worker", "hook", "Mutant.java")
	if err := os.MkdirAll(filepath.Dir(hookFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hookFile, hook, 0o644); err != nil {
		t.Fatal(err)
	}

	// Alone: which mutants compile.
	files := []string{hookFile}
	var order []Mutant
	for _, name := range names {
		for _, m := range methods[name] {
			out, err := Apply(src, m)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, writeCorpusCopy(t, filepath.Join(dir, "alone"), fmt.Sprintf("m%04d", len(order)), out))
			order = append(order, m)
		}
	}
	_, errs := flowCheck(t, javac, filepath.Join(dir, "alone"), files)
	failsAlone := map[string]bool{}
	for i, m := range order {
		if len(errs[fmt.Sprintf("m%04d", i)]) > 0 {
			failsAlone[m.ID] = true
		}
	}

	// Together: the schemata, sites dropped by javac's error lines, round after round.
	todo := map[string][]Mutant{}
	for _, name := range names {
		todo[name] = methods[name]
	}
	final := map[string]*Schema{}
	for round := 0; round < 6 && len(todo) > 0; round++ {
		rdir := filepath.Join(dir, fmt.Sprintf("round%d", round))
		files := []string{hookFile}
		built := map[string]*Schema{}
		pkgs := map[string]string{}
		for k, name := range names {
			ms, ok := todo[name]
			if !ok {
				continue
			}
			s, err := BuildSchema(src, ms)
			if err != nil {
				t.Fatal(err)
			}
			built[name] = s
			pkgs[name] = fmt.Sprintf("s%03d", k)
			files = append(files, writeCorpusCopy(t, rdir, pkgs[name], []byte(s.Text)))
		}
		output, errs := flowCheck(t, javac, rdir, files)
		for name, s := range built {
			lines := errs[pkgs[name]]
			if len(lines) == 0 {
				final[name] = s
				delete(todo, name)
				continue
			}
			drop := map[string]bool{}
			for _, l := range lines {
				for _, id := range s.SitesOnLine(l) {
					drop[id] = true
				}
			}
			if len(drop) == 0 {
				t.Errorf("%s: an error outside every site (the contexts let in a site that breaks flow analysis), every mutant alone:\n%s", name, output)
				delete(todo, name)
				continue
			}
			var rest []Mutant
			for _, m := range todo[name] {
				if s.IDs[m.ID] > 0 && !drop[m.ID] {
					rest = append(rest, m)
				}
			}
			todo[name] = rest
		}
	}
	if len(todo) > 0 {
		t.Errorf("schemata of %d methods still fail after the rounds", len(todo))
	}
	pairs := map[string]int{}
	in := 0
	for _, name := range names {
		s := final[name]
		if s == nil {
			continue
		}
		for _, m := range methods[name] {
			if s.IDs[m.ID] == 0 {
				continue
			}
			in++
			pairs[m.Operator+"/"+s.Context[m.ID]]++
			if failsAlone[m.ID] {
				t.Errorf("%s: %s line %d %q is in the schema (%s) but does not compile alone", name, m.Operator, m.Line, strings.TrimSpace(m.Mutated), s.Context[m.ID])
			}
		}
	}
	if !failsAlone["control"] {
		t.Error("the control compiles alone: javac's errors were not read")
	}
	keys := make([]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, fmt.Sprintf("%s %d", k, pairs[k]))
	}
	sort.Strings(keys)
	t.Logf("%d of %d mutants in a schema (%d uncompilable alone, the control included); proven (operator/context count): %s", in, total, len(failsAlone), strings.Join(keys, ", "))
	if in*2 < total {
		t.Errorf("only %d of %d mutants fit a schema", in, total)
	}
}
