package schema

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// docsTemplate is docs/settings.md around the table of settings, which replaces {{TABLE}}.
//
//go:embed settings.md.tmpl
var docsTemplate string

// Markdown is docs/settings.md: how settings are given, and every setting of Table with its
// type, default, scope and description.
func Markdown() []byte {
	var b strings.Builder
	b.WriteString("| setting | type | default | scope | description |\n|---|---|---|---|---|\n")
	for i := range Table {
		s := &Table[i]
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", s.Name, cell(s.typeText()), cell(s.defaultText()), s.Scope, cell(s.longDescription()))
	}
	return []byte(strings.Replace(docsTemplate, "{{TABLE}}\n", b.String(), 1))
}

func (s *Setting) typeText() string {
	switch s.Type {
	case Boolean:
		return "boolean"
	case Integer:
		return fmt.Sprintf("integer, %d to %d", int64(s.Min), int64(s.Max))
	case Number:
		if s.Max == unbounded {
			return fmt.Sprintf("number, at least %g", s.Min)
		}
		return fmt.Sprintf("number, %g to %g", s.Min, s.Max)
	case String:
		if s.NonEmpty {
			return "non-empty string"
		}
		return "string"
	case Enum:
		vals := s.choiceValues()
		for i, v := range vals {
			vals[i] = "`" + v + "`"
		}
		return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
	case StringList:
		switch {
		case s.EnvNames:
			return "list of environment variable names"
		case s.NonEmpty:
			return "non-empty list of non-empty strings"
		}
		return "list of strings"
	}
	return ""
}

func (s *Setting) defaultText() string {
	text := "`" + plainJSON(s.Default) + "`"
	if s.Env != "" {
		if s.Default == "" {
			text = "`$" + s.Env + "`"
		} else {
			text = "`$" + s.Env + "`, else " + text
		}
	}
	if s.DefaultNote != "" {
		text += " (" + s.DefaultNote + ")"
	}
	return text
}

// plainJSON is v as JSON, but a non-empty string without its quotes.
func plainJSON(v any) string {
	if str, ok := v.(string); ok && str != "" {
		return str
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func (s *Setting) longDescription() string {
	text := s.Description
	for _, c := range s.Choices {
		text += fmt.Sprintf(" `%s`: %s", c.Value, c.Description)
	}
	if s.KeysProject {
		text += " A change opens a new warm project (build model, workers) for the next job."
	}
	return text
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
