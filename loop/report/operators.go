package report

// operatorInfo names and explains the mutation operators, for formats that show them to people
// (SARIF rules, the mte report's mutator names).
var operatorInfo = map[string][2]string{
	"ROR":  {"RelationalOperatorReplacement", "A relational operator is replaced (`<` by `<=`, `==` by `!=`, ...)."},
	"AOR":  {"ArithmeticOperatorReplacement", "An arithmetic, bitwise or shift operator is replaced, or a unary minus removed."},
	"LCR":  {"LogicalConnectorReplacement", "A logical connector is replaced (`&&` by `||`) or one of its operands dropped."},
	"NEG":  {"ConditionNegation", "A condition is negated, or a `!` removed."},
	"CDR":  {"ConditionRemoval", "A condition is replaced by `true` or `false`."},
	"BND":  {"BoundaryConstant", "An integer constant is moved by one, or set to 0."},
	"INC":  {"IncrementSwap", "An increment or compound assignment is swapped (`++` by `--`, `+=` by `-=`)."},
	"RET":  {"ReturnValue", "The returned value is replaced by another of its type."},
	"MATH": {"MathMaxMin", "`Math.max` and `Math.min` are swapped."},
	"CHAR": {"CharacterClassReplacement", "A `Character` class predicate is replaced by its neighbour (`isLetter` by `isLetterOrDigit`)."},
	"VCR":  {"CallRemoval", "A call statement is removed."},
	"LLM":  {"ModelWrittenMutant", "A mutant written by the mutant agent (the LLM)."},
}

// OperatorName returns the operator's name ("ROR" → "RelationalOperatorReplacement"); an
// operator it does not know keeps its code.
func OperatorName(op string) string {
	if d, ok := operatorInfo[op]; ok {
		return d[0]
	}
	if op == "" {
		return "Mutant"
	}
	return op
}

// OperatorDescription says in a sentence what the operator changes.
func OperatorDescription(op string) string {
	if d, ok := operatorInfo[op]; ok {
		return d[1]
	}
	return "Mutants of the " + op + " operator."
}
