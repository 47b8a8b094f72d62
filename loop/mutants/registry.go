package mutants

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/advertest/advertest-lsp/loop/mutants/opnames"
	sitter "github.com/smacker/go-tree-sitter"
)

// Group is an operator's stage in the rule-based M (opnames.Group): its first move plays the
// default group, its later moves add the strong group on the lines of surviving mutants and on
// uncovered lines.
type Group = opnames.Group

const (
	GroupDefault = opnames.Default
	GroupStrong  = opnames.Strong
)

// Operator is one record of the registry: one mutation operator of the rule-based M.
type Operator struct {
	// Code names the operator in Mutant.Operator, the report and the hover:
	// "ROR", "AOR", ... A code may have one record in each group (ROR's boundary and
	// negation are default, the remaining relational operators strong); Name tells them apart.
	Code  string
	Group Group
	// NodeTypes are the tree-sitter node types mutate is called on.
	NodeTypes []string
	// Description is one line for `advertest mutate --list-operators` and docs/operators.md.
	Description string
	// mutate records the candidate edits for node n (whose type is one of NodeTypes) with
	// g.add and g.remove.
	mutate func(g *generator, n *sitter.Node)
}

// Name is "CODE/group", unique in the registry: "ROR/default", "BND/strong".
func (op *Operator) Name() string { return op.record().Name() }

// registry lists every operator, the default group first: one record a line pair, its
// function in the file named after its code. Adding an operator is one record here, its code
// and group in opnames.Records (the names settings/schema checks without tree-sitter), one test
// in operators_test.go and a row in docs/operators.md's table (TestRegistryMatchesOpnames,
// TestEveryOperatorHasATest and TestDocsListEveryOperator fail without them).
var registry = []*Operator{
	{Code: "ROR", Group: GroupDefault, NodeTypes: binaryNodeTypes, mutate: swapBinary(rorBoundaryAndNegation, anyOperands),
		Description: "relational boundary and negation: < → <= >=; <= → < >; > → >= <=; >= → > <; == ↔ !="},
	{Code: "AOR", Group: GroupDefault, NodeTypes: binaryNodeTypes, mutate: swapBinary(aorMath, arithmetic),
		Description: "+ ↔ -, * → /, / → *, % → * (never on a String concatenation)"},
	{Code: "NEG", Group: GroupDefault, NodeTypes: conditionNodeTypes, mutate: negateCondition,
		Description: "negated condition of if/while/do/for/?: (`c` → `!c`, `!c` → `c`) where ROR does not already negate it"},
	{Code: "LCR", Group: GroupDefault, NodeTypes: binaryNodeTypes, mutate: swapBinary(lcrSwap, noPatternBinding),
		Description: "&& ↔ ||"},
	{Code: "RET", Group: GroupDefault, NodeTypes: []string{"return_statement"}, mutate: returnValue,
		Description: "return values by the declared type: true/false, 0 (1 for 0), \"\" and null, Optional.empty(), empty List/Set/Map, null"},
	{Code: "MATH", Group: GroupDefault, NodeTypes: []string{"method_invocation"}, mutate: swapMinMax,
		Description: "Math.max ↔ Math.min"},
	{Code: "CHAR", Group: GroupDefault, NodeTypes: []string{"method_invocation"}, mutate: swapCharClass,
		Description: "a Character class predicate → its neighbour: isLetter → isLetterOrDigit, isDigit → isLetterOrDigit, isLetterOrDigit → isLetter isDigit, isAlphabetic → isLetterOrDigit, isUpperCase ↔ isLowerCase, isWhitespace ↔ isSpaceChar, isJavaIdentifierStart ↔ isJavaIdentifierPart"},
	{Code: "VCR", Group: GroupDefault, NodeTypes: []string{"expression_statement"}, mutate: removeCall,
		Description: "a call statement `foo(x);` removed (not a log call, not in a try that catches a checked exception)"},
	{Code: "WRAP", Group: GroupDefault, NodeTypes: []string{"method_invocation"}, mutate: removeWrapper,
		Description: "a clamp, guard or normaliser taken away: Math.max(0, e) → e, likewise min (the argument that is not the bound), Math.abs(e) → e, Math.floorMod/floorDiv → % /, Math.addExact/subtractExact/multiplyExact → + - *, Math.toIntExact(e) → (int) e, Objects.requireNonNull(e) → e, s.trim()/strip()/toLowerCase()/toUpperCase() → s"},
	{Code: "SWAP", Group: GroupDefault, NodeTypes: binaryNodeTypes, mutate: swapOperands,
		Description: "operands swapped: a - b → b - a, a / b → b / a, a % b → b % a (not with a constant on the right), s + t → t + s on Strings (not in a throw or log message)"},
	{Code: "LOOP", Group: GroupDefault, NodeTypes: []string{"for_statement"}, mutate: wrongLoopBound,
		Description: "a nested for loop's bound j < B → the enclosing for loop's bound and its variable (j < n, j < i), innermost first, at most 2"},
	{Code: "EXIT", Group: GroupDefault, NodeTypes: []string{"return_statement"}, mutate: exitDefault,
		Description: "an early return removed from an if branch: a guard clause followed by more code, or any such return of a void method or constructor"},

	{Code: "ROR", Group: GroupStrong, NodeTypes: binaryNodeTypes, mutate: swapBinary(rorRemaining, orderable),
		Description: "the remaining relational operators: < → > == !=, <= → >= == !=, > → < == !=, >= → <= == !=; == and != → < <= > >= on numbers only"},
	{Code: "AOR", Group: GroupStrong, NodeTypes: []string{"binary_expression", "unary_expression"}, mutate: arithmeticRest,
		Description: "the rest of + - * / %; & ↔ |, ^ → &, << ↔ >>, >>> → >>; unary minus removed"},
	{Code: "NEG", Group: GroupStrong, NodeTypes: []string{"unary_expression"}, mutate: removeNot,
		Description: "`!x` → `x` anywhere"},
	{Code: "LCR", Group: GroupStrong, NodeTypes: binaryNodeTypes, mutate: dropOperand,
		Description: "`a && b` → `a`, `b` (likewise ||)"},
	{Code: "BND", Group: GroupStrong, NodeTypes: []string{"decimal_integer_literal", "hex_integer_literal"}, mutate: constantBoundary,
		Description: "integer constants c → c+1, c-1, 0 (base and long suffix kept, no overflow)"},
	{Code: "INC", Group: GroupStrong, NodeTypes: []string{"update_expression", "assignment_expression"}, mutate: swapIncrement,
		Description: "++ ↔ --, += ↔ -=, *= ↔ /= (never += on a String)"},
	{Code: "CDR", Group: GroupStrong, NodeTypes: []string{"if_statement", "ternary_expression"}, mutate: removeCondition,
		Description: "if (c) → if (true), if (false); likewise a ternary's condition"},
	{Code: "EXIT", Group: GroupStrong, NodeTypes: []string{"return_statement", "break_statement", "continue_statement"}, mutate: exitStrong,
		Description: "the other early exits removed from an if branch: a return that ends a loop's body, a break (not out of while (true) or for (;;), not labelled), a continue"},
	{Code: "VAR", Group: GroupStrong, NodeTypes: []string{"identifier"}, mutate: replaceVariable,
		Description: "a read of a local or parameter → another visible, assigned local or parameter of the same declared type, nearest declarations first, at most 2"},
	{Code: "ARG", Group: GroupStrong, NodeTypes: []string{"argument_list"}, mutate: swapArguments,
		Description: "two neighbouring arguments of the same declared type swapped: f(a, b) → f(b, a) (not in calls that commute, Math.max, Objects.equals, ...)"},
	{Code: "IDX", Group: GroupStrong, NodeTypes: []string{"array_access", "method_invocation"}, mutate: shiftIndex,
		Description: "an index i → i + 1, i - 1 in a[i], list.get(i), s.charAt(i) (a variable, field, call or element, not a constant)"},
}

// Operators returns the registry's records in registry order (the default group first).
func Operators() []*Operator {
	return append([]*Operator(nil), registry...)
}

// WriteOperatorTable prints the registry as a table: code, group, description; what
// `advertest mutate --list-operators` shows.
func WriteOperatorTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tGROUP\tDESCRIPTION")
	for _, op := range registry {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", op.Code, op.Group, op.Description)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the operator table: %w", err)
	}
	_, err := fmt.Fprintf(w, "\nChoose with the setting mutants.operators: a list of groups (%s), codes (%s) and CODE/group names; see docs/operators.md.\n",
		strings.Join(opnames.Groups(), ", "), strings.Join(opnames.Codes(), ", "))
	return err
}

// record is op's name in opnames.
func (op *Operator) record() opnames.Record { return opnames.Record{Code: op.Code, Group: op.Group} }
