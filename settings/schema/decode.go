package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Problem is one bad setting.
type Problem struct {
	// Path is the dotted name ("mutantTimeout.factor").
	Path string
	// Message says what was wanted and what came ("want an integer from 1 to 99, got 0").
	Message string
	// Kept is the value kept instead, quoted as Message quotes values ("" for an unknown
	// setting, which keeps nothing).
	Kept string
}

func (p Problem) String() string {
	s := fmt.Sprintf("setting `%s`: %s", p.Path, p.Message)
	if p.Kept != "" {
		s += "; using " + p.Kept
	}
	return s
}

// Err is the problem as an error that stops (the CLI's): what was wrong, not what is kept.
func (p Problem) Err() error { return fmt.Errorf("setting `%s`: %s", p.Path, p.Message) }

// Decode overlays raw (the `advertest` object, nested by the dotted names; null or empty
// keeps base) on base. A bad value keeps base's value and is reported; an unknown setting is
// reported and ignored; a null value keeps base's. Problems come sorted by path.
func Decode(base Values, raw json.RawMessage) (Values, []Problem) {
	v := base
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "" || trimmed == "null" {
		return v, nil
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return v, []Problem{{Path: "advertest", Message: "want a JSON object, got " + describe(raw)}}
	}
	var problems []Problem
	decodeObject(&v, "", obj, &problems)
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Path < problems[j].Path })
	return v, problems
}

func decodeObject(v *Values, prefix string, obj map[string]any, problems *[]Problem) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := k
		if prefix != "" {
			path = prefix + "." + k
		}
		val := obj[k]
		if s := Lookup(path); s != nil {
			if val == nil {
				continue // null: keep the value
			}
			if p := s.apply(v, val); p != nil {
				*problems = append(*problems, *p)
			}
			continue
		}
		if _, ok := groups[path]; ok {
			if sub, ok := val.(map[string]any); ok {
				decodeObject(v, path, sub, problems)
			} else if val != nil {
				*problems = append(*problems, Problem{Path: path, Message: "want an object, got " + describeValue(val)})
			}
			continue
		}
		*problems = append(*problems, Problem{Path: path, Message: "unknown setting (ignored)"})
	}
}

// apply checks val (as encoding/json decodes it) and stores it, or keeps v's value and says why.
func (s *Setting) apply(v *Values, val any) *Problem {
	checked, msg := s.check(val)
	if msg != "" {
		return &Problem{Path: s.Name, Message: msg, Kept: format(s.load(v))}
	}
	s.store(v, checked)
	return nil
}

// Set sets the setting name (dotted) from text, as --set name=value writes it: a boolean as
// true or false, a number in decimal, a string as it is, and a list of strings as a JSON list
// (["-o","-q"]) or comma-separated (-o,-q; "" is the empty list). The error names the
// setting; v is unchanged then.
func Set(v *Values, name, text string) error {
	s := Lookup(name)
	if s == nil {
		return unknownName(name)
	}
	if p := s.apply(v, s.fromText(text)); p != nil {
		return p.Err()
	}
	return nil
}

// fromText reads text as encoding/json would decode the setting's value; what does not read
// as the setting's type stays a string, for check to refuse with the text quoted.
func (s *Setting) fromText(text string) any {
	switch s.Type {
	case Boolean:
		if b, err := strconv.ParseBool(text); err == nil {
			return b
		}
	case Integer, Number:
		if n, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err == nil {
			return n
		}
	case StringList:
		trimmed := strings.TrimSpace(text)
		if strings.HasPrefix(trimmed, "[") {
			var list any
			if err := json.Unmarshal([]byte(trimmed), &list); err == nil {
				return list
			}
			return text
		}
		if trimmed == "" {
			return []any{}
		}
		var list []any
		for _, e := range strings.Split(text, ",") {
			list = append(list, e)
		}
		return list
	}
	return text
}

func unknownName(name string) error {
	if members, ok := groups[name]; ok {
		return Problem{Path: name, Message: "a group of settings, not a setting: name one of " + strings.Join(members, ", ")}.Err()
	}
	msg := "unknown setting"
	if near := nearest(name); near != "" {
		msg += fmt.Sprintf(" (did you mean `%s`?)", near)
	}
	return Problem{Path: name, Message: msg}.Err()
}

// nearest is the setting whose name is closest to name, when it is close (a typo), or "".
func nearest(name string) string {
	best, bestDist := "", 3
	for _, s := range Table {
		if d := editDistance(strings.ToLower(name), strings.ToLower(s.Name)); d < bestDist {
			best, bestDist = s.Name, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
