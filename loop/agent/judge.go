package agent

import (
	"context"
	"errors"

	"github.com/advertest/advertest-lsp/loop/mutants"
)

// Judgement is an equivalence judge's answer about one surviving mutant.
type Judgement struct {
	// Equivalent is the judge's claim that the mutant behaves like the original on every
	// input. It is never proof: the mutant stays a survivor, judged likely equivalent.
	Equivalent bool
	// Reason is the judge's argument, in words.
	Reason string
	// Input, when not equivalent, is an input the judge says tells the two apart ("" when it
	// gave none). The claim is believed only once a test built on it kills the mutant.
	Input string
}

// Judge is asked, after the game, about the surviving mutants that T targeted and could not
// kill: equivalent to the original, or not and an input that tells them apart.
type Judge interface {
	Judge(ctx context.Context, s *Subject, m mutants.Mutant) (Judgement, error)
}

// ErrNoJudgement is matched (errors.Is) by a judge's error when its answer could not be read
// (not the JSON asked for): no verdict, and the game goes on with the next mutant.
var ErrNoJudgement = errors.New("the equivalence judge gave no usable answer")

// InputTester is a T that writes tests from an input said to tell a mutant from the original
// (the judge's), meant to pass on the original and fail on m.
type InputTester interface {
	KillWithInput(ctx context.Context, s *Subject, m mutants.Mutant, input string) ([]Test, error)
}
