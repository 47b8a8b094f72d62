// Package archtest checks docs/architecture.md's package table against the code: every
// package has a row, and no package imports what its row's "never imports" column names. The
// rules are read from the doc, so that the doc and the check cannot drift apart.
package archtest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/advertest/advertest-lsp"

// rule is one row of the table: what the package may not import.
type rule struct {
	pkg string
	// never are product packages (exact import paths below the module) it may not import.
	never []string
	// external are import paths outside the product it may not import (LSP types, the LLM client).
	external []string
	// only, when set, are the only product packages it may import ("anything but ...").
	only []string
	// noProduct: it imports nothing of the product; stdOnly: nothing but the standard library
	// (and the product packages in only).
	noProduct, stdOnly, noCgo bool
}

var (
	backticked   = regexp.MustCompile("`([^`]+)`")
	parenthetic  = regexp.MustCompile(`\([^()]*\)`)
	phraseImport = map[string][]string{
		"LSP types": {"go.lsp.dev/protocol"},
		"LLM":       {"github.com/sashabaranov/go-openai"},
	}
)

// readRules reads the package table of docs/architecture.md.
func readRules(t *testing.T) []rule {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rules []rule
	in := false
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for sc.Scan() {
		line := sc.Text()
		if line == "| package | owns | never imports |" {
			in = true
			continue
		}
		if !in || strings.HasPrefix(line, "|---") {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("docs/architecture.md: a row of the package table without three cells: %s", line)
		}
		never := strings.TrimSpace(cells[2])
		for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
			rules = append(rules, parseRule(t, m[1], never))
		}
	}
	if len(rules) < 20 {
		t.Fatalf("docs/architecture.md's package table has %d rows", len(rules))
	}
	return rules
}

func parseRule(t *testing.T, pkg, cell string) rule {
	r := rule{pkg: pkg, noCgo: strings.Contains(cell, "no cgo")}
	cell = parenthetic.ReplaceAllString(cell, "")
	if cell == "—" {
		return r
	}
	stdOnly := strings.Contains(cell, "the standard library")
	if rest, ok := strings.CutPrefix(cell, "anything but "); ok || strings.HasPrefix(cell, "everything but ") {
		if !ok {
			rest = strings.TrimPrefix(cell, "everything but ")
		}
		r.only = []string{}
		for _, m := range backticked.FindAllStringSubmatch(rest, -1) {
			r.only = append(r.only, m[1])
		}
		r.stdOnly = stdOnly
		return r
	}
	for _, item := range strings.Split(cell, ", ") {
		item = strings.TrimSpace(item)
		switch {
		case item == "anything of the product":
			r.noProduct = true
		case phraseImport[item] != nil:
			r.external = append(r.external, phraseImport[item]...)
			if item == "LLM" {
				r.never = append(r.never, "loop/llm")
			}
		case backticked.MatchString(item):
			r.never = append(r.never, backticked.FindStringSubmatch(item)[1])
		default:
			t.Errorf("docs/architecture.md: %s's \"never imports\" holds %q, which this test cannot read", pkg, item)
		}
	}
	return r
}

// goList runs `go list` on the module's packages with a template, one line per package.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func isStd(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") }

func TestImportRules(t *testing.T) {
	rules := readRules(t)
	byPkg := map[string]rule{}
	for _, r := range rules {
		byPkg[r.pkg] = r
	}
	checked := 0
	for _, line := range goList(t, "-f", "{{.ImportPath}} {{len .GoFiles}} {{join .Imports \" \"}}", "./...") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		if fields[1] == "0" {
			continue // tests alone (this package)
		}
		r, ok := byPkg[pkg]
		if !ok {
			t.Errorf("%s has no row in docs/architecture.md's package table", pkg)
			continue
		}
		checked++
		for _, imp := range fields[2:] {
			product, isProduct := strings.CutPrefix(imp, module+"/")
			switch {
			case isProduct && r.noProduct:
				t.Errorf("%s imports %s: its row says it imports nothing of the product", pkg, product)
			case isProduct && r.only != nil && !slices.Contains(r.only, product):
				t.Errorf("%s imports %s: its row allows only %v", pkg, product, r.only)
			case isProduct && slices.Contains(r.never, product):
				t.Errorf("%s imports %s, which its row says it never imports", pkg, product)
			case !isProduct && !isStd(imp) && r.stdOnly:
				t.Errorf("%s imports %s: its row allows the standard library alone", pkg, imp)
			case !isProduct && slices.Contains(r.external, imp):
				t.Errorf("%s imports %s, which its row says it never imports", pkg, imp)
			}
		}
		if r.noCgo {
			for _, dep := range goList(t, "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "./"+pkg) {
				if dep != "" {
					t.Errorf("%s needs cgo through %s: its row says it builds without", pkg, dep)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d packages", checked)
	}
}
