package mutants

// ROR, the relational operator replacement: records ROR/default and ROR/strong.
var (
	// The boundary and the negation of each relational operator, as PIT's
	// CONDITIONALS_BOUNDARY and NEGATE_CONDITIONALS.
	rorBoundaryAndNegation = map[string][]string{
		"<": {"<=", ">="}, "<=": {"<", ">"}, ">": {">=", "<="}, ">=": {">", "<"},
		"==": {"!="}, "!=": {"=="},
	}
	rorRemaining = map[string][]string{
		"<": {">", "==", "!="}, "<=": {">=", "==", "!="}, ">": {"<", "==", "!="}, ">=": {"<=", "==", "!="},
		"==": {"<", "<=", ">", ">="}, "!=": {"<", "<=", ">", ">="},
	}
)

// orderable: `x == null` has no `x < null`, so == and != get the ordering operators only
// between numbers.
func orderable(g *generator, b binary) bool {
	return (b.op != "==" && b.op != "!=") || g.numericOperands(b)
}
