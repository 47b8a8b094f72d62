package llm

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/advertest/advertest-lsp/buildtools/harness"
)

// The six deterministic repair rules of the paper's Appendix A, driven by javac's diagnostics
// of the generated class:
//
//  1. missing semicolon: "';' expected" → append ';' to the line unless it ends with ; { or }
//  2. unexpected end of file: "reached end of file while parsing" → append the missing '}'s
//  3. invalid statement: "not a statement" → as rule 1
//  4. scope malformation: "invalid method declaration", "illegal start of type" or
//     "illegal start of expression" while braces are unbalanced → close the open scopes: before
//     the member declaration the error points at (where the earlier method forgot its '}'),
//     else at the end of the file
//  5. placeholder removal: a "..." on an erroneous line (not a varargs parameter) is removed
//  6. dependency resolution: "cannot find symbol" (a class, or a class used as a variable) or
//     "package ... does not exist" → import it from the class under test's imports, the class
//     under test itself, JUnit's assertions and annotations, or java.util

// RuleContext is what rule 6 knows of the class under test.
type RuleContext struct {
	Package     string   // the class under test's package
	Class       string   // its binary name
	Imports     []string // its file's imports
	JUnit       int
	TestPackage string // the generated class's package (normally Package)
}

// Rule names, as RuleResult.Applied lists them.
const (
	RuleSemicolon   = "missing-semicolon"
	RuleEOF         = "unexpected-eof"
	RuleStatement   = "invalid-statement"
	RuleScope       = "scope-malformation"
	RulePlaceholder = "placeholder"
	RuleImports     = "missing-imports"
)

// ApplyRules applies every rule whose diagnostic appears to src (the generated class's text,
// the diagnostics' lines 1-based in it). It returns the new text and the rules that changed it.
func ApplyRules(src string, diags []harness.CompileDiagnostic, rc RuleContext) (string, []string) {
	lines := strings.Split(src, "\n")
	applied := map[string]bool{}
	appendSemicolon := map[int]string{} // line → rule
	placeholders := map[int]bool{}
	closeBefore := map[int]bool{}
	closeAtEOF := false
	var symbols []string
	for _, d := range diags {
		if d.Kind != "" && !strings.EqualFold(d.Kind, "error") {
			continue
		}
		msg := d.Message
		first, _, _ := strings.Cut(msg, "\n")
		if d.Line >= 1 && d.Line <= len(lines) && hasPlaceholder(lines[d.Line-1]) {
			placeholders[d.Line] = true
		}
		switch {
		case strings.Contains(first, "';' expected"):
			appendSemicolon[d.Line] = RuleSemicolon
		case strings.Contains(first, "not a statement"):
			if _, ok := appendSemicolon[d.Line]; !ok {
				appendSemicolon[d.Line] = RuleStatement
			}
		case strings.Contains(first, "reached end of file while parsing"):
			closeAtEOF = true
		case strings.Contains(first, "invalid method declaration") || strings.Contains(first, "illegal start of type") ||
			strings.Contains(first, "illegal start of expression"):
			if at := memberStart(lines, d.Line); at > 0 {
				closeBefore[at] = true
			} else {
				closeAtEOF = true
			}
		case strings.Contains(first, "cannot find symbol"):
			if sym := symbolOf(msg); sym != "" {
				symbols = append(symbols, sym)
			}
		case strings.Contains(first, "does not exist") && strings.HasPrefix(first, "package "):
			pkg := strings.TrimSuffix(strings.TrimPrefix(first, "package "), " does not exist")
			symbols = append(symbols, lastSegment(pkg))
		}
	}

	// Rule 5 first (it may make rule 1's check moot), then line-local edits.
	for l := range placeholders {
		nl := removePlaceholder(lines[l-1])
		if nl != lines[l-1] {
			lines[l-1] = nl
			applied[RulePlaceholder] = true
		}
	}
	for l, rule := range appendSemicolon {
		if l < 1 || l > len(lines) {
			continue
		}
		if nl, ok := withSemicolon(lines[l-1]); ok {
			lines[l-1] = nl
			applied[rule] = true
		}
	}
	// Rule 4 inside the file: a member declaration nested in a method that forgot its '}'
	// gets the brace before it (its annotations included), one per missing brace. javac
	// reports such a method variously ("illegal start of expression", "';' expected" on the
	// nested header, "reached end of file"), so any of them triggers the check; braces
	// still missing after it go at the end of the file (rule 2).
	if len(closeBefore) > 0 || closeAtEOF || len(appendSemicolon) > 0 {
		for missing := braceBalance(strings.Join(lines, "\n")); missing > 0; missing-- {
			at := nestedMember(lines)
			if at == 0 {
				break
			}
			lines = append(lines[:at-1], append([]string{leadingSpace(lines[at-1]) + "}"}, lines[at-1:]...)...)
			applied[RuleScope] = true
		}
	}
	text := strings.Join(lines, "\n")
	// Rules 2 and 4 at the end of the file.
	if closeAtEOF {
		if n := braceBalance(text); n > 0 {
			text = strings.TrimRight(text, "\n") + "\n" + strings.Repeat("}\n", n)
			applied[RuleEOF] = true
		}
	}
	if len(symbols) > 0 {
		if nt, ok := addImports(text, symbols, rc); ok {
			text = nt
			applied[RuleImports] = true
		}
	}
	var names []string
	for _, r := range []string{RuleSemicolon, RuleEOF, RuleStatement, RuleScope, RulePlaceholder, RuleImports} {
		if applied[r] {
			names = append(names, r)
		}
	}
	return text, names
}

func leadingSpace(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

// withSemicolon appends ';' unless the line (its code, before a trailing // comment) ends
// with ; { or } or is empty.
func withSemicolon(line string) (string, bool) {
	code, comment := line, ""
	if i := strings.Index(line, "//"); i >= 0 && !strings.Contains(line[:i], `"`) {
		code, comment = line[:i], line[i:]
	}
	trimmed := strings.TrimRight(code, " \t\r")
	if trimmed == "" || strings.HasSuffix(trimmed, ";") || strings.HasSuffix(trimmed, "{") || strings.HasSuffix(trimmed, "}") {
		return line, false
	}
	out := trimmed + ";"
	if comment != "" {
		out += " " + comment
	}
	return out, true
}

var placeholderRE = regexp.MustCompile(`(^|[^\w\]>$])\.\.\.`)

func hasPlaceholder(line string) bool { return placeholderRE.MatchString(line) }

func removePlaceholder(line string) string {
	out := placeholderRE.ReplaceAllString(line, "$1")
	if strings.TrimSpace(out) == "" || strings.TrimSpace(out) == ";" {
		return ""
	}
	// `foo(...)` → `foo()`; `x = ...;` would still be broken and is left to the LLM.
	return out
}

var (
	annotationLineRE = regexp.MustCompile(`^\s*@[A-Z]\w*(\(.*\))?\s*$`)
	voidHeaderRE     = regexp.MustCompile(`^\s*((public|protected|private|static|final|synchronized)\s+)*void\s+\w+\s*\(`)
)

// nestedMember is the first line (annotations included) of a method declaration that sits
// deeper than a class body (depth 1), or 0.
func nestedMember(lines []string) int {
	for l := 1; l <= len(lines); l++ {
		if !annotationLineRE.MatchString(lines[l-1]) && !voidHeaderRE.MatchString(lines[l-1]) {
			continue
		}
		start := l
		for start > 1 && annotationLineRE.MatchString(lines[start-2]) {
			start--
		}
		// skip to the header after annotations
		h := l
		for h <= len(lines) && annotationLineRE.MatchString(lines[h-1]) {
			h++
		}
		if h > len(lines) || !voidHeaderRE.MatchString(lines[h-1]) {
			l = h
			continue
		}
		if depthBefore(lines, start) >= 2 {
			return start
		}
		l = h
	}
	return 0
}

var memberStartRE = regexp.MustCompile(`^\s*(@\w+|(public|protected|private|static|final|void|synchronized)\b)`)

// memberStart is the first line (its annotations included) of the member declaration at or
// just before line, or 0 when line does not start one.
func memberStart(lines []string, line int) int {
	if line < 1 || line > len(lines) || !memberStartRE.MatchString(lines[line-1]) {
		return 0
	}
	for line > 1 && strings.HasPrefix(strings.TrimSpace(lines[line-2]), "@") {
		line--
	}
	return line
}

// braceBalance is the number of '{' without their '}' (strings, chars and comments skipped).
func braceBalance(src string) int {
	return depthAt(src, len(src))
}

// depthBefore is the brace depth at the start of line (1-based).
func depthBefore(lines []string, line int) int {
	return depthAt(strings.Join(lines[:line-1], "\n"), -1)
}

func depthAt(src string, end int) int {
	if end < 0 || end > len(src) {
		end = len(src)
	}
	depth, _ := scanBraces(src, 0, end, nil)
	return depth
}

// scanBraces walks src[from:limit] counting '{' and '}' outside strings, chars and comments.
// After each '}' it calls closed (when set) with the brace's offset and the depth left; a true
// answer stops the walk there. It returns the depth reached and where it stopped (-1 when it
// ran to limit).
func scanBraces(src string, from, limit int, closed func(at, depth int) bool) (int, int) {
	depth := 0
	for i := from; i < limit; i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < limit && src[i+1] == '/':
			for i < limit && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < limit && src[i+1] == '*':
			i += 2
			for i+1 < limit && !(src[i] == '*' && src[i+1] == '/') {
				i++
			}
			i++
		case c == '"' || c == '\'':
			q := c
			for i++; i < limit && src[i] != q && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case c == '{':
			depth++
		case c == '}':
			depth--
			if closed != nil && closed(i, depth) {
				return depth, i
			}
		}
	}
	return depth, -1
}

var symbolRE = regexp.MustCompile(`symbol:\s+(class|variable|method|interface|enum|record)\s+([\w$]+)`)

// symbolOf is the missing symbol's name of a "cannot find symbol" message.
func symbolOf(msg string) string {
	m := symbolRE.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	return m[2]
}

func lastSegment(s string) string { return s[strings.LastIndexByte(s, '.')+1:] }

var junitAssertions = map[string]bool{
	"assertEquals": true, "assertNotEquals": true, "assertTrue": true, "assertFalse": true, "assertNull": true,
	"assertNotNull": true, "assertThrows": true, "assertSame": true, "assertNotSame": true, "assertArrayEquals": true,
	"fail": true, "assertDoesNotThrow": true, "assertAll": true, "assertIterableEquals": true, "assertLinesMatch": true,
}

var javaUtil = map[string]bool{
	"List": true, "ArrayList": true, "LinkedList": true, "Map": true, "HashMap": true, "LinkedHashMap": true, "TreeMap": true,
	"Set": true, "HashSet": true, "LinkedHashSet": true, "TreeSet": true, "Arrays": true, "Collections": true,
	"Optional": true, "Objects": true, "Iterator": true, "Collection": true, "Deque": true, "ArrayDeque": true,
	"Random": true, "NoSuchElementException": true, "Comparator": true,
}

// importsFor names the imports that may resolve a missing symbol.
func importsFor(sym string, rc RuleContext) []string {
	var out []string
	for _, im := range rc.Imports {
		switch {
		case strings.HasSuffix(im, "."+sym):
			out = append(out, im)
		case strings.HasSuffix(im, ".*") && !strings.HasPrefix(im, "static "):
			// An on-demand import of the class under test probably provides it.
			out = append(out, im)
		}
	}
	if lastSegment(strings.ReplaceAll(rc.Class, "$", ".")) == sym && rc.TestPackage != rc.Package && rc.Package != "" {
		out = append(out, strings.SplitN(rc.Class, "$", 2)[0])
	}
	junitPkg := "org.junit.jupiter.api"
	if rc.JUnit == 4 {
		junitPkg = "org.junit"
	}
	switch {
	case junitAssertions[sym]:
		if rc.JUnit == 4 {
			out = append(out, "static org.junit.Assert.*")
		} else {
			out = append(out, "static org.junit.jupiter.api.Assertions.*")
		}
	case sym == "Test" || sym == "Before" || sym == "After" || sym == "BeforeEach" || sym == "AfterEach" ||
		sym == "BeforeAll" || sym == "AfterAll" || sym == "BeforeClass" || sym == "AfterClass":
		out = append(out, junitPkg+"."+sym)
	case javaUtil[sym]:
		out = append(out, "java.util."+sym)
	}
	return out
}

// addImports inserts the imports that resolve syms and are not there yet.
func addImports(src string, syms []string, rc RuleContext) (string, bool) {
	have := map[string]bool{}
	for _, m := range importLineRE.FindAllStringSubmatch(src, -1) {
		have[strings.Join(strings.Fields(m[1]), " ")] = true
	}
	var add []string
	for _, s := range syms {
		for _, im := range importsFor(s, rc) {
			if !have[im] {
				have[im] = true
				add = append(add, "import "+im+";")
			}
		}
	}
	if len(add) == 0 {
		return src, false
	}
	block := strings.Join(add, "\n") + "\n"
	if locs := importLineRE.FindAllStringIndex(src, -1); len(locs) > 0 {
		at := locs[len(locs)-1][1]
		if at < len(src) && src[at] == '\n' {
			at++
		}
		return src[:at] + block + src[at:], true
	}
	if loc := packageLineRE.FindStringIndex(src); loc != nil {
		at := loc[1]
		if at < len(src) && src[at] == '\n' {
			at++
		}
		return src[:at] + "\n" + block + src[at:], true
	}
	return block + src, true
}

var (
	importLineRE  = regexp.MustCompile(`(?m)^[ \t]*import\s+([^;]+);[ \t]*`)
	packageLineRE = regexp.MustCompile(`(?m)^[ \t]*package\s+[\w.]+\s*;[ \t]*`)
	classNameRE   = regexp.MustCompile(`(?m)^[^/\n]*?\b(class|interface|record|enum)\s+([A-Za-z_$][\w$]*)`)
)

// normalizeClass puts the generated class into pkg and names it className (the declaration,
// its constructors and references all follow), so that it compiles where the suite will live.
func normalizeClass(src, pkg, className string) string {
	if loc := packageLineRE.FindStringIndex(src); loc != nil {
		repl := ""
		if pkg != "" {
			repl = "package " + pkg + ";"
		}
		src = src[:loc[0]] + repl + src[loc[1]:]
	} else if pkg != "" {
		src = "package " + pkg + ";\n\n" + src
	}
	if m := classNameRE.FindStringSubmatch(src); m != nil && m[2] != className {
		src = regexp.MustCompile(`\b`+regexp.QuoteMeta(m[2])+`\b`).ReplaceAllString(src, className)
	}
	return src
}

// diagnosticsText formats the generated class's compile errors for a repair prompt.
func diagnosticsText(diags []harness.CompileDiagnostic, className string, lines []string) string {
	var b strings.Builder
	n := 0
	for _, d := range diags {
		if d.Kind != "" && !strings.EqualFold(d.Kind, "error") {
			continue
		}
		if n == 20 {
			b.WriteString("(more errors left out)\n")
			break
		}
		n++
		code := ""
		if d.Line >= 1 && d.Line <= len(lines) {
			code = strings.TrimSpace(lines[d.Line-1])
		}
		fmt.Fprintf(&b, "line %d: error: %s\n", d.Line, strings.TrimSpace(d.Message))
		if code != "" {
			fmt.Fprintf(&b, "    %s\n", code)
		}
	}
	return b.String()
}
