package mutants

import "github.com/advertest/advertest-lsp/loop/mutants/opnames"

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
	if err := opnames.Check(names); err != nil {
		return Selection{}, err
	}
	picked := map[*Operator]bool{}
	for _, name := range names {
		for _, op := range registry {
			if opnames.Matches(name, op.record()) {
				picked[op] = true
			}
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
