package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// Type is a setting's JSON type.
type Type int

const (
	Boolean Type = iota
	Integer
	Number
	String
	// Enum is a string from Setting.Choices.
	Enum
	// StringList is a JSON list of strings.
	StringList
)

// Scope is where a VS Code user may set a setting (contributes.configuration's scope).
type Scope string

const (
	// Window settings may come from the user's or the workspace's settings.
	Window Scope = "window"
	// Machine settings come from the user's settings only: a repository's
	// .vscode/settings.json cannot set them. For what could send a secret elsewhere or lower
	// the sandbox.
	Machine Scope = "machine"
	// MachineOverridable settings are the user's by default, and a workspace may override
	// them: machine-specific paths and arguments that the project's own build could set anyway.
	MachineOverridable Scope = "machine-overridable"
)

// Choice is one allowed value of an Enum.
type Choice struct {
	Value       string
	Description string
}

// unbounded as a Max means "no upper limit".
const unbounded = math.MaxFloat64

// Setting is one row of Table.
type Setting struct {
	// Name is the dotted path under the `advertest` section ("mutantTimeout.factor"); JSON
	// nests it as objects.
	Name string
	Type Type
	// Default in the setting's JSON form: bool, int, float64, string or []string (a
	// ...Ms setting's default is in milliseconds).
	Default any
	// Env, for a string, names the environment variable whose non-empty value replaces Default.
	Env string
	// DefaultNote says in words what the default means ("one per core"), for the docs.
	DefaultNote string
	// Min and Max bound an Integer or a Number, inclusive (Max unbounded: no limit).
	Min, Max float64
	// Choices are an Enum's values.
	Choices []Choice
	// NonEmpty refuses "" for a String, and an empty list or an empty entry for a StringList.
	NonEmpty bool
	// EnvNames makes a StringList's entries environment variable names.
	EnvNames bool
	Scope    Scope
	// Valid, when set, checks a value of the right type further (the operators of
	// mutants.operators exist): "" when it is good, else what is wrong.
	Valid func(val any) string
	// Description is Markdown: VS Code shows it, docs/settings.md lists it.
	Description string
	// KeysProject says a warm project depends on the setting (its build, its workers and how
	// they run and time tests, what the sandbox lets in): a change of it opens a new project
	// for the next job. ProjectKey is made of these settings and no others.
	KeysProject bool
	// field points into Values: *bool, *int, *int64, *float64, *string, *OnSave,
	// *[]string, or *time.Duration for a ...Ms setting.
	field func(*Values) any
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// check validates v, as encoding/json decodes it, against s. It returns the value in the
// form store takes, or what was wanted and what came ("want ..., got ...").
func (s *Setting) check(v any) (any, string) {
	val, msg := s.checkType(v)
	if msg == "" && s.Valid != nil {
		msg = s.Valid(val)
	}
	return val, msg
}

// checkType is check without Valid.
func (s *Setting) checkType(v any) (any, string) {
	got := func() string { return "got " + describeValue(v) }
	switch s.Type {
	case Boolean:
		if b, ok := v.(bool); ok {
			return b, ""
		}
		return nil, "want true or false, " + got()
	case Integer:
		n, ok := v.(float64)
		if !ok || n != math.Trunc(n) || n < s.Min || n > s.Max {
			return nil, fmt.Sprintf("want an integer from %d to %d, %s", int64(s.Min), int64(s.Max), got())
		}
		return int64(n), ""
	case Number:
		n, ok := v.(float64)
		if !ok || n < s.Min || n > s.Max || math.IsNaN(n) {
			return nil, fmt.Sprintf("want a number %s, %s", s.numberRange(), got())
		}
		return n, ""
	case String:
		str, ok := v.(string)
		if !ok || (s.NonEmpty && strings.TrimSpace(str) == "") {
			return nil, "want a non-empty string, " + got()
		}
		return str, ""
	case Enum:
		if str, ok := v.(string); ok {
			for _, c := range s.Choices {
				if str == c.Value {
					return str, ""
				}
			}
		}
		return nil, fmt.Sprintf("want one of %s, %s", strings.Join(s.choiceValues(), ", "), got())
	case StringList:
		return s.checkList(v)
	}
	panic(fmt.Sprintf("settings table: %s has type %d", s.Name, s.Type))
}

func (s *Setting) checkList(v any) (any, string) {
	list, ok := v.([]any)
	if !ok || (s.NonEmpty && len(list) == 0) {
		want := "want a list of strings"
		if s.NonEmpty {
			want = "want a non-empty list of strings"
		}
		return nil, want + ", got " + describeValue(v)
	}
	out := make([]string, 0, len(list))
	for i, e := range list {
		str, ok := e.(string)
		switch {
		case !ok:
			return nil, fmt.Sprintf("entry %d: want a string, got %s", i, describeValue(e))
		case s.NonEmpty && strings.TrimSpace(str) == "":
			return nil, fmt.Sprintf("entry %d: want a non-empty string, got %s", i, describeValue(e))
		case s.EnvNames && !envName.MatchString(str):
			return nil, fmt.Sprintf("entry %d: want an environment variable name (letters, digits and _, not starting with a digit), got %s", i, describeValue(e))
		}
		out = append(out, str)
	}
	return out, ""
}

func (s *Setting) numberRange() string {
	if s.Max == unbounded {
		return fmt.Sprintf("of at least %g", s.Min)
	}
	return fmt.Sprintf("from %g to %g", s.Min, s.Max)
}

func (s *Setting) choiceValues() []string {
	vals := make([]string, len(s.Choices))
	for i, c := range s.Choices {
		vals[i] = c.Value
	}
	return vals
}

// format writes a value of s (the form check returns) the way problems quote it: strings and
// lists of strings quoted, numbers plain.
func format(val any) string {
	switch x := val.(type) {
	case string, []string:
		return fmt.Sprintf("%q", x)
	case float64:
		return fmt.Sprintf("%g", x)
	}
	return fmt.Sprint(val)
}

// Lookup returns the setting named name ("llm.model"), or nil.
func Lookup(name string) *Setting {
	return byName[name]
}

var byName, groups = index()

// index maps each name to its row, and each group ("llm", "llm.pricing") to its settings'
// names.
func index() (map[string]*Setting, map[string][]string) {
	names := map[string]*Setting{}
	groups := map[string][]string{}
	for i := range Table {
		s := &Table[i]
		names[s.Name] = s
		parts := strings.Split(s.Name, ".")
		for j := 1; j < len(parts); j++ {
			g := strings.Join(parts[:j], ".")
			groups[g] = append(groups[g], s.Name)
		}
	}
	for _, list := range groups {
		sort.Strings(list)
	}
	return names, groups
}

// Names lists every setting's name in Table's order.
func Names() []string {
	names := make([]string, len(Table))
	for i, s := range Table {
		names[i] = s.Name
	}
	return names
}

func describeValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return describe(b)
}

func describe(raw []byte) string {
	const limit = 60
	s := strings.TrimSpace(string(raw))
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return s
}
