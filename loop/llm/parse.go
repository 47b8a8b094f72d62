package llm

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

var fenceRE = regexp.MustCompile("(?m)^[ \t]*```[ \t]*([A-Za-z0-9_+-]*)[ \t]*$")

// fencedBlocks returns the contents of the reply's code blocks with their info strings; an
// opening fence that never closes (a reply cut off by max_tokens) runs to the end.
func fencedBlocks(text string) (blocks []string, langs []string) {
	locs := fenceRE.FindAllStringSubmatchIndex(text, -1)
	for i := 0; i < len(locs); i += 2 {
		open := locs[i]
		lang := strings.ToLower(text[open[2]:open[3]])
		start := open[1]
		if start < len(text) && text[start] == '\n' {
			start++
		}
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		blocks = append(blocks, text[start:end])
		langs = append(langs, lang)
	}
	return blocks, langs
}

var javaStartRE = regexp.MustCompile(`(?m)^[ \t]*(package\s|import\s|(public\s+|final\s+|abstract\s+)*class\s|@)`)

// ExtractJava returns the Java test class of a reply: the ```java block (or the code block
// that declares a class), else the text from the first line that starts Java (package,
// import, class, an annotation) to the last closing brace, chatter left out.
func ExtractJava(reply string) string {
	blocks, langs := fencedBlocks(reply)
	best := ""
	for i, b := range blocks {
		if !strings.Contains(b, "class ") {
			continue
		}
		if langs[i] == "java" || best == "" {
			if len(b) > len(best) || langs[i] == "java" {
				best = b
			}
		}
	}
	if best != "" {
		return strings.TrimSpace(best) + "\n"
	}
	loc := javaStartRE.FindStringIndex(reply)
	if loc == nil {
		return ""
	}
	text := reply[loc[0]:]
	if end := strings.LastIndexByte(text, '}'); end >= 0 {
		// Chatter after the class ("This covers ...") is dropped; a reply cut off before its
		// last brace keeps everything (the rules close it).
		if rest := strings.TrimSpace(text[end+1:]); rest != "" {
			text = text[:end+1]
		}
	}
	return strings.TrimSpace(text) + "\n"
}

// rawMutant is one entry of M's JSON.
type rawMutant struct {
	Line        json.Number `json:"line"`
	Original    string      `json:"original"`
	Mutated     string      `json:"mutated"`
	Description string      `json:"description"`
}

// MutantDrops counts why proposed mutants were dropped.
type MutantDrops struct {
	NotFound, MultiLine, NoOp, Repeated, Unparsable int
}

func (d MutantDrops) Total() int {
	return d.NotFound + d.MultiLine + d.NoOp + d.Repeated + d.Unparsable
}

// ParseMutants reads M's reply (the LLM format of docs/llm.md: {"mutants":[{line, original, mutated,
// description}]}), tolerating code fences, chatter, trailing commas and a reply cut off in
// the middle (the complete entries are kept). It trusts `original` over `line`: the method's
// line with that text nearest to `line` wins. It drops mutants that change more than one line,
// change nothing but whitespace or comments, repeat a known mutant or an earlier one, or do
// not parse. known holds the ids already in the pool.
func ParseMutants(reply string, s *agent.Subject, known map[string]bool) ([]mutants.Mutant, MutantDrops) {
	var drops MutantDrops
	raws := decodeMutantJSON(reply)
	lines := strings.Split(string(s.Source), "\n")
	methodKey := methodKey(s.Method)
	occ := occurrences(lines, s.Method.StartLine, s.Method.EndLine)
	baseErrors := len(s.Parsed.SyntaxErrors())
	seen := map[string]bool{}
	for id := range known {
		seen[id] = true
	}
	var out []mutants.Mutant
	for _, r := range raws {
		orig := strings.TrimRight(r.Original, "\r\n")
		mut := strings.TrimRight(r.Mutated, "\r\n")
		if strings.ContainsAny(mut, "\n\r") || strings.ContainsAny(orig, "\n\r") {
			drops.MultiLine++
			continue
		}
		want, _ := r.Line.Int64()
		line := nearestLine(lines, s.Method.StartLine, s.Method.EndLine, orig, int(want))
		if line == 0 {
			drops.NotFound++
			continue
		}
		fileLine := strings.TrimRight(lines[line-1], "\r")
		indent := fileLine[:len(fileLine)-len(strings.TrimLeft(fileLine, " \t"))]
		mutated := indent + strings.TrimSpace(mut)
		if codeOnly(mutated) == codeOnly(fileLine) {
			drops.NoOp++
			continue
		}
		id := mutants.NewID(s.Method.BinaryClassName, methodKey, fileLine, mutated)
		if k := occ[line]; k >= 2 {
			id += fmt.Sprintf("-%d", k)
		}
		if seen[id] {
			drops.Repeated++
			continue
		}
		m := mutants.Mutant{
			ID: id, Line: line, Original: fileLine, Mutated: mutated, Origin: mutants.OriginLLM, Operator: "LLM",
			Description: "`" + strings.TrimSpace(fileLine) + "` → `" + strings.TrimSpace(mutated) + "`",
		}
		src, err := mutants.Apply(s.Source, m)
		if err != nil {
			drops.Unparsable++
			continue
		}
		if pf, err := javaparse.Parse(src); err != nil || len(pf.SyntaxErrors()) > baseErrors {
			drops.Unparsable++
			continue
		}
		seen[id] = true
		out = append(out, m)
	}
	return out, drops
}

// methodKey is the rule-based M's method key, "name(T1,T2)", so that the same change gets
// the same id whoever proposed it.
func methodKey(m *javaparse.Method) string {
	types := make([]string, len(m.Params))
	for i, p := range m.Params {
		types[i] = strings.Join(strings.Fields(p.Type), "")
	}
	return m.Name + "(" + strings.Join(types, ",") + ")"
}

// occurrences numbers each line of the method by how often its trimmed text occurred so far
// (the rule-based M's id suffix).
func occurrences(lines []string, first, last int) map[int]int {
	out := map[int]int{}
	count := map[string]int{}
	for l := first; l <= last && l <= len(lines); l++ {
		t := strings.TrimSpace(lines[l-1])
		count[t]++
		out[l] = count[t]
	}
	return out
}

// nearestLine is the method's line whose text is original (whitespace aside) nearest to want;
// 0 when none matches.
func nearestLine(lines []string, first, last int, original string, want int) int {
	target := strings.Join(strings.Fields(original), " ")
	if target == "" {
		return 0
	}
	best, bestDist := 0, 0
	for l := first; l <= last && l <= len(lines); l++ {
		if strings.Join(strings.Fields(lines[l-1]), " ") != target {
			continue
		}
		d := l - want
		if d < 0 {
			d = -d
		}
		if best == 0 || d < bestDist {
			best, bestDist = l, d
		}
	}
	return best
}

var (
	lineCommentRE  = regexp.MustCompile(`//.*$`)
	blockCommentRE = regexp.MustCompile(`/\*.*?\*/`)
)

// codeOnly is a line without comments and whitespace (string literals are kept: a comment
// marker inside a literal is rare enough on one line to accept the approximation).
func codeOnly(line string) string {
	line = blockCommentRE.ReplaceAllString(line, "")
	if !strings.Contains(line, `"`) {
		line = lineCommentRE.ReplaceAllString(line, "")
	}
	return strings.Join(strings.Fields(line), "")
}

// decodeMutantJSON finds the mutant entries in a reply.
func decodeMutantJSON(reply string) []rawMutant {
	candidates := []string{}
	blocks, langs := fencedBlocks(reply)
	for i, b := range blocks {
		if langs[i] == "json" || strings.Contains(b, `"mutated"`) {
			candidates = append(candidates, b)
		}
	}
	candidates = append(candidates, reply)
	for _, c := range candidates {
		c = stripTrailingCommas(c)
		if start := strings.IndexAny(c, "{["); start >= 0 {
			var obj struct {
				Mutants []rawMutant `json:"mutants"`
			}
			dec := json.NewDecoder(strings.NewReader(c[start:]))
			dec.UseNumber()
			if c[start] == '{' {
				if err := dec.Decode(&obj); err == nil && len(obj.Mutants) > 0 {
					return obj.Mutants
				}
			} else {
				var arr []rawMutant
				if err := dec.Decode(&arr); err == nil && len(arr) > 0 {
					return arr
				}
			}
		}
	}
	// Salvage: every complete object that has "mutated" (a reply cut off mid-array).
	var out []rawMutant
	text := stripTrailingCommas(reply)
	for _, obj := range flatObjects(text) {
		if !strings.Contains(obj, `"mutated"`) {
			continue
		}
		var r rawMutant
		dec := json.NewDecoder(strings.NewReader(obj))
		dec.UseNumber()
		if err := dec.Decode(&r); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// stripTrailingCommas removes commas that directly precede ] or } outside strings.
func stripTrailingCommas(s string) string {
	var b strings.Builder
	var str jsonStrings
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !str.inside(c) && c == ',' {
			j := i + 1
			for j < len(s) && strings.ContainsRune(" \t\r\n", rune(s[j])) {
				j++
			}
			if j < len(s) && (s[j] == ']' || s[j] == '}') {
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// flatObjects returns the complete {...} objects that contain no nested object.
func flatObjects(s string) []string {
	var out []string
	start := -1
	var str jsonStrings
	for i := 0; i < len(s); i++ {
		if str.inside(s[i]) {
			continue
		}
		switch s[i] {
		case '{':
			start = i
		case '}':
			if start >= 0 {
				out = append(out, s[start:i+1])
				start = -1
			}
		}
	}
	return out
}

// jsonStrings follows a JSON text byte by byte to tell its strings from the rest.
type jsonStrings struct{ inString, escaped bool }

// inside reports whether c, the next byte, belongs to a string (its quotes included).
func (j *jsonStrings) inside(c byte) bool {
	if !j.inString {
		j.inString = c == '"'
		return j.inString
	}
	switch {
	case j.escaped:
		j.escaped = false
	case c == '\\':
		j.escaped = true
	case c == '"':
		j.inString = false
	}
	return true
}

func parseJava(src string) (*javaparse.File, error) { return javaparse.Parse([]byte(src)) }

// ParsePossibleBugs reads the model's answer to its failing tests (prompts.TestExpectation):
// the tests it says reveal a bug in the code, by name, with its reason. Only entries of a
// ```json block or bare object `{"possibleBugs": [{"test": "name", "reason": "..."}]}` whose
// test and reason are non-empty strings count.
func ParsePossibleBugs(reply string) map[string]string {
	out := map[string]string{}
	var candidates []string
	blocks, langs := fencedBlocks(reply)
	for i, b := range blocks {
		if langs[i] == "json" || strings.Contains(b, `"possibleBugs"`) {
			candidates = append(candidates, b)
		}
	}
	if len(candidates) == 0 {
		candidates = append(candidates, reply)
	}
	for _, c := range candidates {
		start := strings.Index(c, "{")
		if start < 0 {
			continue
		}
		var obj struct {
			PossibleBugs []struct {
				Test   json.RawMessage `json:"test"`
				Reason json.RawMessage `json:"reason"`
			} `json:"possibleBugs"`
		}
		if err := json.NewDecoder(strings.NewReader(stripTrailingCommas(c[start:]))).Decode(&obj); err != nil {
			continue
		}
		for _, e := range obj.PossibleBugs {
			var test, reason string
			if json.Unmarshal(e.Test, &test) != nil || json.Unmarshal(e.Reason, &reason) != nil {
				continue
			}
			if test, reason = strings.TrimSpace(test), strings.TrimSpace(reason); test != "" && reason != "" {
				out[test] = reason
			}
		}
	}
	return out
}
