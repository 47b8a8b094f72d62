package llm

import (
	"fmt"
	"sync"
)

// BudgetAccount keeps what one budget (budget.maxTokens / budget.maxUSD) has spent, for
// every client that is given it: a server can keep one per session (a new one when the budget
// settings change), so that its jobs draw on one budget rather than each on its own.
// Before a request is sent, its worst case (the prompt's estimated tokens plus max_tokens) is
// reserved; a request whose worst case would take spent + reserved past a limit is not sent.
// The reply's real usage then replaces the reservation. It is safe for concurrent use.
type BudgetAccount struct {
	limits Budget

	// mu guards the figures below; reservations are made and settled under it, so that
	// concurrent requests never reserve the same room twice.
	mu             sync.Mutex
	spentTokens    int
	spentUSD       float64
	reservedTokens int
	reservedUSD    float64
	inFlight       int // reservations not settled yet
}

// NewBudgetAccount returns an account with nothing spent against limits (zero fields: no
// limit).
func NewBudgetAccount(limits Budget) *BudgetAccount { return &BudgetAccount{limits: limits} }

// Limits are the account's limits.
func (a *BudgetAccount) Limits() Budget { return a.limits }

// Spent returns the tokens and dollars the answered requests used.
func (a *BudgetAccount) Spent() (tokens int, usd float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.spentTokens, a.spentUSD
}

// Reserved returns the worst cases held by requests in flight.
func (a *BudgetAccount) Reserved() (tokens int, usd float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.reservedTokens, a.reservedUSD
}

// Reservation is the room held for one request in flight: Settle it with the reply's usage,
// or Release it when no reply came. Either may be called once; later calls do nothing.
type Reservation struct {
	account *BudgetAccount
	tokens  int
	usd     float64
	done    bool
}

// Reserve holds tokens and usd (one request's worst case), or returns a wrapped ErrBudget
// saying why the request cannot be afforded.
func (a *BudgetAccount) Reserve(tokens int, usd float64) (*Reservation, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.fitsLocked(tokens, usd, true); err != nil {
		return nil, err
	}
	a.reservedTokens += tokens
	a.reservedUSD += usd
	a.inFlight++
	return &Reservation{account: a, tokens: tokens, usd: usd}, nil
}

// Afford returns a wrapped ErrBudget when a request of this worst case could not be sent
// even with nothing in flight (the loop's budget hook: the game ends cleanly).
func (a *BudgetAccount) Afford(tokens int, usd float64) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.fitsLocked(tokens, usd, false)
}

func (a *BudgetAccount) fitsLocked(tokens int, usd float64, withReserved bool) error {
	heldTokens, heldUSD := 0, 0.0
	if withReserved {
		heldTokens, heldUSD = a.reservedTokens, a.reservedUSD
	}
	if max := a.limits.MaxTokens; max > 0 && a.spentTokens+heldTokens+tokens > max {
		return fmt.Errorf("%w: %d of budget.maxTokens %d spent and %d held by requests in flight; the next request could use %d more",
			ErrBudget, a.spentTokens, max, heldTokens, tokens)
	}
	if max := a.limits.MaxUSD; max > 0 && a.spentUSD+heldUSD+usd > max {
		return fmt.Errorf("%w: $%.4f of budget.maxUSD $%.4f spent and $%.4f held by requests in flight; the next request could cost $%.4f more",
			ErrBudget, a.spentUSD, max, heldUSD, usd)
	}
	return nil
}

// Settle replaces the reservation by what the request really used (which may be more than
// was reserved, when the prompt's estimate was low).
func (r *Reservation) Settle(tokens int, usd float64) {
	a := r.account
	a.mu.Lock()
	defer a.mu.Unlock()
	if r.done {
		return
	}
	r.done = true
	a.reservedTokens -= r.tokens
	a.reservedUSD -= r.usd
	if a.inFlight--; a.inFlight == 0 {
		a.reservedUSD = 0 // no rounding error outlives the requests
	}
	a.spentTokens += tokens
	a.spentUSD += usd
}

// Release gives the reservation back: the request got no reply.
func (r *Reservation) Release() { r.Settle(0, 0) }
