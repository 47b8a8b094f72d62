// Package mutants owns the mutant: a change of exactly one line of a method, the id that
// keeps it recognisable across edits, saves and restarts, applying it to a source text and
// carrying it to a line's new place after an edit. It also is the offline mutant agent M:
// a rule-based generator of classic mutation operators on the tree-sitter tree of a method.
//
// # Ids
//
// NewID hashes the class, the method and the trimmed line texts before and after, so
// shifting or re-indenting a line keeps its mutants' ids. Generate gives the k-th line
// (k ≥ 2) of a method with the same trimmed text the suffix "-k".
//
// # Operators and stages
//
// The operators are a registry (registry.go), PIT-style: one record per operator, in the
// file named after its code, with its code (what Mutant.Operator and the report say), its
// group, the tree-sitter node types it applies to, a one-line description and its function;
// one list registers them all, and each record has a test that reads as a sentence
// (operators_test.go). `advertest mutate --list-operators` prints the registry;
// docs/operators.md has it as a table.
//
// Like the LLM's M, the rule-based M works in stages. Its first move uses the default group
// over the whole method:
//
//	ROR   relational boundary and negation: < → <=, >=; <= → <, >; == ↔ !=; ...
//	AOR   + ↔ -, * → /, / → *, % → * (never on String concatenation)
//	NEG   negated condition of if/while/do/for/?: (`c` → `!c`, `!c` → `c`), where ROR
//	      does not already negate it
//	LCR   && ↔ ||
//	RET   return values by the declared type: boolean true/false, numbers 0 (1 for 0),
//	      String "" and null, Optional.empty(), empty List/Set/Map, null for references;
//	      none in void methods, constructors and lambdas
//	MATH  Math.max ↔ Math.min
//	CHAR  a Character class predicate → its neighbour: isLetter → isLetterOrDigit, ...
//	VCR   removal of a call statement `foo(x);`
//	WRAP  a clamp, guard or normaliser taken away: Math.max(0, e) → e, Math.abs(e) → e,
//	      Objects.requireNonNull(e) → e, s.trim() → s, ...
//	SWAP  operands swapped: a - b → b - a, a / b, a % b, s + t on Strings
//	LOOP  a nested for loop bounded by the enclosing loop's bound or variable
//	EXIT  a guard clause's return removed (any if-branch return in a void method)
//
// Later moves ask for Options.Strong on chosen lines (the lines of surviving mutants,
// uncovered lines), which adds operators that never repeat a default mutant:
//
//	ROR   the remaining relational operators (ordering ones on == and != only for numbers)
//	AOR   the rest of + - * / %; & ↔ |, ^ → &, << ↔ >>, >>> → >>; unary minus removed
//	BND   integer constants c → c+1, c-1, 0 (base and long suffix kept, no overflow)
//	INC   ++ ↔ --, += ↔ -=, *= ↔ /=
//	CDR   if (c) → if (true) / if (false), likewise ternary conditions
//	LCR   `a && b` → `a`, `b`
//	NEG   `!x` → `x` anywhere
//	EXIT  a return that ends a loop's body, a break, a continue, removed from an if branch
//	VAR   the wrong variable: a local or parameter read → another of the same declared type
//	ARG   two neighbouring arguments of the same declared type swapped
//	IDX   an index i → i + 1, i - 1 in a[i], list.get(i), s.charAt(i)
//
// CHAR and WRAP to IDX are the fault-like operators: their mutants look like the faults the classic
// operators miss (a missing clamp, operands in the wrong order, a loop bound using the
// wrong variable); docs/operators.md has their precise rules. The scope knowledge they need
// (which locals a site can read, with their declared types) is in scope.go.
//
// A code may have a record in each group (ROR/default, ROR/strong). Select turns the
// setting mutants.operators (groups, codes, CODE/group names) into a Selection, which
// Options.Operators passes to Generate: only selected operators make mutants, and the
// staging applies within the selection.
//
// Generate is a pure function of the tree and the options: asking again gives the same
// mutants with the same ids, so a caller keeps the ids it has and drops repeats.
//
// Every mutant is a token (or expression) replacement inside one line, so the mutated file
// still parses; comments, string and character literals, generics, annotations, switch
// labels, and the bodies of nested and anonymous classes (methods of their own) are never
// touched. Cheap type knowledge (declared parameters, locals and fields) keeps mutants that
// cannot compile out.
//
// # Schemata
//
// BuildSchema puts many rule mutants of a class into one text (schema.go): each site becomes
// a switch on the run's active mutant (advertest.worker.hook.Mutant.active), a statement-level
// if/else for a whole expression or return statement, a boolean ?: in a condition, a ?: in a
// local's initialiser. Only the (operator, context) pairs of schemaContexts go in, which
// TestSchemaCompilesOnlyWhatCompilesAlone proves on the corpus; a for update, a switch label,
// a final, var or narrowing initialiser, a loop condition that is or becomes constant
// (reachability) and LLM mutants stay out, and the engine compiles them one by one. Every line
// stays where it was, so the engine drops the sites of a line javac rejects and compiles again.
package mutants
