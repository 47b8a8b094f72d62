package mutants

import (
	"errors"
	"fmt"
	"strings"
)

// Selection is a set of the registry's operators: the ones the setting mutants.operators
// allows. The zero Selection holds every operator.
type Selection struct {
	ops []*Operator // in registry order; nil: every operator
}

// Select turns the setting's value into a selection. Each name is a group ("default",
// "strong": its records), a code ("ROR": its records in both groups) or a record's Name
// ("ROR/strong"); case does not matter. The selection is the union. An unknown name or an
// empty list is an error that lists the valid names.
func Select(names []string) (Selection, error) {
	if len(names) == 0 {
		return Selection{}, errors.New("no mutation operator selected: " + validNames())
	}
	picked := map[*Operator]bool{}
	for _, raw := range names {
		name := strings.TrimSpace(raw)
		matched := false
		for _, op := range registry {
			if strings.EqualFold(name, string(op.Group)) || strings.EqualFold(name, op.Code) || strings.EqualFold(name, op.Name()) {
				picked[op] = true
				matched = true
			}
		}
		if !matched {
			return Selection{}, fmt.Errorf("unknown mutation operator %q: %s", raw, validNames())
		}
	}
	var s Selection
	for _, op := range registry {
		if picked[op] {
			s.ops = append(s.ops, op)
		}
	}
	return s, nil
}

// MustSelect is Select for names known to be valid (tests, constants); it panics otherwise.
func MustSelect(names ...string) Selection {
	s, err := Select(names)
	if err != nil {
		panic(err)
	}
	return s
}

func validNames() string {
	return fmt.Sprintf("valid are the groups %s, the codes %s, and CODE/group (ROR/strong)",
		strings.Join(groupNames(), ", "), strings.Join(codes(), ", "))
}

// Operators returns the selected records in registry order.
func (s Selection) Operators() []*Operator {
	if s.ops == nil {
		return Operators()
	}
	return append([]*Operator(nil), s.ops...)
}

// Has reports whether the selection holds an operator of group g.
func (s Selection) Has(g Group) bool {
	for _, op := range s.Operators() {
		if op.Group == g {
			return true
		}
	}
	return false
}

// Names lists the selected records' names ("ROR/default", ...), in registry order.
func (s Selection) Names() []string {
	ops := s.Operators()
	out := make([]string, len(ops))
	for i, op := range ops {
		out[i] = op.Name()
	}
	return out
}
