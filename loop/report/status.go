package report

// The statuses beyond the engine's four: mutants that are valid (they compile and finish) but
// are left out of the mutation score, because no test could or should kill them.
const (
	// Equivalent: proven to behave like the original (see Mutant.Equivalence).
	Equivalent Status = "equivalent"
	// Duplicate: compiles to the same bytecode as another mutant of the report.
	Duplicate Status = "duplicate"
	// Ignored: the user's verdict (`advertest mutate --ignore ID`).
	Ignored Status = "ignored"
)

// Statuses lists every status, in the order reports and tables show them.
var Statuses = []Status{Killed, Survived, Timeout, Uncompilable, Equivalent, Duplicate, Ignored}

// The equivalence verdicts.
const (
	VerdictEquivalent       = "equivalent"
	VerdictLikelyEquivalent = "likelyEquivalent"
)

// EquivalenceBy says who reached an equivalence verdict: the by of a report's equivalence.
type EquivalenceBy string

// Who reaches equivalence verdicts.
const (
	// ByBytecode: the mutant compiles to the original's bytecode (trivial compiler equivalence).
	ByBytecode EquivalenceBy = "bytecode"
	// BySearch: the offline T's search reached and changed the mutated state but no outcome.
	BySearch EquivalenceBy = "search"
	// ByLLM: the LLM's equivalence judge (or its M, saying a mutant it wrote is equivalent).
	ByLLM EquivalenceBy = "llm"
	// ByUser: the user marked the mutant equivalent.
	ByUser EquivalenceBy = "user"
)

// Equivalence says that a mutant behaves like the original. An `equivalent` verdict takes the
// mutant out of the score (status equivalent); a `likelyEquivalent` one leaves it a survivor
// that still counts, shown with less weight.
type Equivalence struct {
	// Verdict is "equivalent" or "likelyEquivalent".
	Verdict string `json:"verdict"`
	// By says who reached the verdict.
	By EquivalenceBy `json:"by"`
	// Evidence says why, in words (the identical bytecode, the inputs tried, the model's
	// argument, the user's note).
	Evidence string `json:"evidence,omitempty"`
}

// LikelyEquivalent reports whether the mutant is a survivor judged likely equivalent.
func (m *Mutant) LikelyEquivalent() bool {
	return m.Status == Survived && m.Equivalence != nil && m.Equivalence.Verdict == VerdictLikelyEquivalent
}

// Coverage holds a method's covered and total counts, the numbers behind Report.LineCoverage
// and Report.BranchCoverage.
type Coverage struct {
	Lines    Count `json:"lines"`
	Branches Count `json:"branches"`
	// UncoveredLines are the method's lines that hold code and that no passing test executes,
	// 1-based; a survivor on one of them has no coverage at all.
	UncoveredLines []int `json:"uncoveredLines,omitempty"`
}

// Count is covered out of total.
type Count struct {
	Covered int `json:"covered"`
	Total   int `json:"total"`
}

// Add returns the sum of two counts.
func (c Count) Add(o Count) Count {
	return Count{Covered: c.Covered + o.Covered, Total: c.Total + o.Total}
}

// Ratio returns covered / total, or 0 when total is 0.
func (c Count) Ratio() float64 {
	if c.Total == 0 {
		return 0
	}
	return float64(c.Covered) / float64(c.Total)
}

// BranchRatio is branch coverage as the per-method figure has it: covered / total branches,
// and, where there are no branches, 1 once every line is covered (a method without branches
// is fully branch-covered once its lines are).
func BranchRatio(lines, branches Count) float64 {
	if branches.Total > 0 {
		return branches.Ratio()
	}
	if lines.Total > 0 && lines.Covered == lines.Total {
		return 1
	}
	return 0
}

// RawScore returns killed over every valid mutant: killed, survived, equivalent, duplicate
// and ignored (everything that compiled and finished in time); nil when nothing is valid.
// Score, the mutation score, leaves equivalent, duplicate and ignored mutants out.
func RawScore(mutants []Mutant) *float64 {
	c := Counts(mutants)
	return ratio(c[Killed], rawValid(c))
}

// rawValid counts the mutants that compiled and finished in time.
func rawValid(c map[Status]int) int {
	return c[Killed] + c[Survived] + c[Equivalent] + c[Duplicate] + c[Ignored]
}

func ratio(n, d int) *float64 {
	if d == 0 {
		return nil
	}
	r := float64(n) / float64(d)
	return &r
}

// IsUncovered reports whether the mutant's line is one the method's coverage lists as executed
// by no passing test. It is false when the report carries no coverage counts.
func (r *Report) IsUncovered(m *Mutant) bool {
	if r.Coverage == nil {
		return false
	}
	for _, l := range r.Coverage.UncoveredLines {
		if l == m.Line {
			return true
		}
	}
	return false
}
