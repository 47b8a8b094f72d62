package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// testSource is one upstream test source file, relative to src/test/java.
type testSource struct {
	// Rel is its path relative to src/test/java ("org/apache/commons/lang3/CharUtilsTest.java").
	Rel string
	// Package is its Java package and Name its top-level class's simple name.
	Package, Name string
	// Imports are its imports' names, static ones as the imported member's full name.
	Imports []string
	// Abstract: its top-level type is an abstract class, an interface or an annotation (no
	// test class, whatever its name).
	Abstract bool
	text     string
}

var (
	importDecl = regexp.MustCompile(`(?m)^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;`)
	pkgDecl    = regexp.MustCompile(`(?m)^\s*package\s+([\w.]+)\s*;`)
)

// readTestSources reads every .java file under root (src/test/java), sorted by path.
func readTestSources(root string) ([]*testSource, error) {
	var out []*testSource
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".java") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		out = append(out, parseTestSource(filepath.ToSlash(rel), string(b)))
		return nil
	})
	if os.IsNotExist(err) {
		return nil, nil
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, err
}

func parseTestSource(rel, text string) *testSource {
	s := &testSource{Rel: rel, Name: strings.TrimSuffix(filepath.Base(rel), ".java"), text: text}
	if m := pkgDecl.FindStringSubmatch(text); m != nil {
		s.Package = m[1]
	}
	for _, m := range importDecl.FindAllStringSubmatch(text, -1) {
		s.Imports = append(s.Imports, m[1])
	}
	decl := regexp.MustCompile(`(?m)^[ \t]*((?:(?:public|protected|private|abstract|final|static|strictfp)\s+)*)` +
		`(class|interface|enum|@interface|record)\s+` + regexp.QuoteMeta(s.Name) + `\b`)
	if m := decl.FindStringSubmatch(text); m != nil {
		s.Abstract = strings.Contains(m[1], "abstract") || m[2] == "interface" || m[2] == "@interface"
	}
	return s
}

// FullName is the source's top-level class's binary name.
func (s *testSource) FullName() string {
	if s.Package == "" {
		return s.Name
	}
	return s.Package + "." + s.Name
}

// leftOutByImport says why s is left out when it imports one of the prefixes (a package or a
// class name prefix, matched at a dot or as given when it ends in a dot), "" when it is not.
func leftOutByImport(s *testSource, prefixes map[string]string) string {
	keys := make([]string, 0, len(prefixes))
	for k := range prefixes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, imp := range s.Imports {
		for _, p := range keys {
			if imp == p || strings.HasPrefix(imp, strings.TrimSuffix(p, ".")+".") {
				return prefixes[p]
			}
		}
	}
	return ""
}

// isTestClass: Surefire's patterns select s and it is a concrete class.
func isTestClass(s *testSource, includes, excludes []string) bool {
	if s.Abstract || !matchesAny(s.Rel, includes) {
		return false
	}
	return !matchesAny(s.Rel, excludes)
}

func matchesAny(rel string, patterns []string) bool {
	for _, p := range patterns {
		if antPattern(p).MatchString(rel) {
			return true
		}
	}
	return false
}

// antPattern turns a Surefire (Ant-style) pattern into a regexp over slash-separated paths:
// "**/" any folders (none included), "*" any characters but "/", "?" one.
func antPattern(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch {
		case strings.HasPrefix(p[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(p[i:], "**"):
			b.WriteString(".*")
			i++
		case p[i] == '*':
			b.WriteString("[^/]*")
		case p[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// closure is the test sources that roots need to compile, roots included: every source of the
// test tree that a needed source names (by its full name, or by its simple name from the same
// package or through an on-demand import of its package), and so on.
func closure(all []*testSource, roots []string) ([]*testSource, error) {
	byRel := map[string]*testSource{}
	for _, s := range all {
		byRel[s.Rel] = s
	}
	var queue []*testSource
	seen := map[string]bool{}
	for _, r := range roots {
		s := byRel[filepath.ToSlash(r)]
		if s == nil {
			return nil, fmt.Errorf("no test source %s under src/test/java", r)
		}
		if !seen[s.Rel] {
			seen[s.Rel] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, s := range all {
			if seen[s.Rel] || !references(k, s) {
				continue
			}
			seen[s.Rel] = true
			queue = append(queue, s)
		}
	}
	var out []*testSource
	for _, s := range all {
		if seen[s.Rel] {
			out = append(out, s)
		}
	}
	return out, nil
}

// references reports whether k's text names s's class.
func references(k, s *testSource) bool {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(s.Name) + `\b`)
	if !word.MatchString(k.text) {
		return false
	}
	if k.Package == s.Package || strings.Contains(k.text, s.FullName()) {
		return true
	}
	for _, imp := range k.Imports {
		if imp == s.Package+".*" {
			return true
		}
	}
	return false
}

// compileError is the compiler's first complaint about one file.
type compileError struct {
	// Rel is the file relative to the source root; Message the compiler's message (with its
	// "symbol:" line, when it has one); Symbol the missing symbol's name, when it is one.
	Rel, Message, Symbol string
}

var (
	// mavenError is maven-compiler-plugin's error line: "[ERROR] /path/F.java:[12,8] message".
	mavenError  = regexp.MustCompile(`^\[ERROR\] (.+\.java):\[(\d+),\d+\] (.*)$`)
	mavenSymbol = regexp.MustCompile(`^(?:\[ERROR\])?\s+symbol:\s+(?:class|interface|variable|method|static)?\s*(\S.*)$`)
	ansiEscape  = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")
)

// parseCompileErrors reads `mvn test-compile`'s output: the first error of each file under
// root, keyed by the file's path relative to root. Error lines about other files come back in
// others.
func parseCompileErrors(out, root string) (errs map[string]compileError, others []string) {
	errs = map[string]compileError{}
	lines := strings.Split(ansiEscape.ReplaceAllString(out, ""), "\n")
	for i, line := range lines {
		m := mavenError.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		rel, err := filepath.Rel(root, m[1])
		if err != nil || strings.HasPrefix(rel, "..") {
			others = append(others, line)
			continue
		}
		rel = filepath.ToSlash(rel)
		if _, ok := errs[rel]; ok {
			continue
		}
		e := compileError{Rel: rel, Message: fmt.Sprintf("line %s: %s", m[2], m[3])}
		// A missing symbol's error goes on with "symbol:" and "location:" lines.
		for j := i + 1; j < len(lines) && j <= i+2 && !mavenError.MatchString(lines[j]); j++ {
			if sm := mavenSymbol.FindStringSubmatch(lines[j]); sm != nil {
				e.Message += " (" + strings.TrimSpace(strings.TrimPrefix(lines[j], "[ERROR]")) + ")"
				e.Symbol = strings.TrimSpace(sm[1])
				break
			}
		}
		errs[rel] = e
	}
	return errs, others
}
