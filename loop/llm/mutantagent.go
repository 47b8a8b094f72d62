package llm

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/llm/prompts"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// MutantAgent is the paper's M over an LLM: single-line mutants as JSON, first on the whole
// method, then on uncovered lines and, grouped by line, new and different ones on the lines of
// surviving mutants. Every follow-up lists all the mutants already proposed for the method (the
// paper's rule: a mutant is never proposed twice), and a follow-up whose prompt would repeat an
// earlier one of the method word for word is not sent (at temperature 0 it would get the same
// answer). Its methods are called from the game's goroutine (the first move from one of its
// own); its state is guarded by mu.
type MutantAgent struct {
	client *Client
	log    *zap.Logger
	// MaxMutants is how many mutants one request asks for [12].
	MaxMutants int

	mu    sync.Mutex
	drops MutantDrops
	// sent are the prompts sent, per method; skipped counts the follow-ups not sent because
	// they repeated one.
	sent    map[string]map[string]bool
	skipped int
}

var _ agent.MutantAgent = (*MutantAgent)(nil)

// NewMutantAgent makes M over client.
func NewMutantAgent(client *Client, log *zap.Logger) *MutantAgent {
	if log == nil {
		log = zap.NewNop()
	}
	return &MutantAgent{client: client, log: log.Named("llm.M"), MaxMutants: 12, sent: map[string]map[string]bool{}}
}

// Skipped counts the follow-up requests not sent because their prompt repeated an earlier one.
func (a *MutantAgent) Skipped() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.skipped
}

// Drops counts the proposed mutants dropped so far, by reason.
func (a *MutantAgent) Drops() MutantDrops {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.drops
}

// InitialMutants asks for mutants of the whole method.
func (a *MutantAgent) InitialMutants(ctx context.Context, s *agent.Subject) ([]mutants.Mutant, error) {
	return a.ask(ctx, s, prompts.MutantInitial, prompts.Task{MaxMutants: a.MaxMutants}, nil)
}

// MoreMutants asks for mutants on the uncovered lines and the survivors' lines; nothing when
// the suite has no blind spot.
func (a *MutantAgent) MoreMutants(ctx context.Context, s *agent.Subject, fb agent.Feedback) ([]mutants.Mutant, error) {
	if len(fb.UncoveredLines) == 0 && len(fb.Survivors) == 0 {
		return nil, nil
	}
	task := prompts.Task{MaxMutants: a.MaxMutants, UncoveredLines: fb.UncoveredLines}
	task.SurvivorGroups = byLine(fb.Survivors, nil)
	// Every mutant already proposed for the method, survivors aside (listed above), by line.
	surv := map[string]bool{}
	for _, m := range fb.Survivors {
		surv[m.ID] = true
	}
	known := map[string]bool{}
	for _, m := range fb.Known {
		known[m.ID] = true
	}
	task.KnownGroups = byLine(fb.Known, surv)
	return a.ask(ctx, s, prompts.MutantMore, task, known)
}

// byLine groups mutants by their line, in the lines' order, leaving out those in skip.
func byLine(ms []mutants.Mutant, skip map[string]bool) []prompts.SurvivorGroup {
	groups := map[int]*prompts.SurvivorGroup{}
	for _, m := range ms {
		if skip[m.ID] {
			continue
		}
		g := groups[m.Line]
		if g == nil {
			g = &prompts.SurvivorGroup{Line: m.Line, Original: m.Original}
			groups[m.Line] = g
		}
		g.Mutated = append(g.Mutated, m.Mutated)
	}
	var out []prompts.SurvivorGroup
	for _, g := range groups {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

func (a *MutantAgent) ask(ctx context.Context, s *agent.Subject, kind string, task prompts.Task, known map[string]bool) ([]mutants.Mutant, error) {
	msgs, err := agentMessages("M", s, kind, task, a.client.cfg.ContextTokens)
	if err != nil {
		return nil, err
	}
	if a.repeats(s, msgs) {
		a.log.Info("not asking M again: the prompt repeats an earlier one of this method", zap.String("kind", kind))
		return nil, nil
	}
	reply, err := a.client.Chat(ctx, "M."+kind, msgs)
	if err != nil {
		if errors.Is(err, ErrBudget) {
			return nil, nil
		}
		return nil, err
	}
	ms, drops := ParseMutants(reply.Text, s, known)
	if len(ms) == 0 && !strings.Contains(reply.Text, `"mutated"`) && !strings.Contains(reply.Text, `"mutants"`) {
		// Not the JSON asked for: ask once more, in the same conversation (its prefix is
		// the cached one).
		a.log.Info("the mutant reply holds no mutant JSON: asking again once", zap.String("kind", kind))
		msgs = append(msgs, Message{Role: "assistant", Content: reply.Text},
			Message{Role: "user", Content: `That was not the JSON asked for. Answer with the JSON object {"mutants": [...]} only, in a ` + "```json" + ` block.`})
		reply, err = a.client.Chat(ctx, "M."+kind+".again", msgs)
		if err != nil {
			if errors.Is(err, ErrBudget) {
				return nil, nil
			}
			return nil, err
		}
		ms, drops = ParseMutants(reply.Text, s, known)
	}
	a.mu.Lock()
	a.drops.NotFound += drops.NotFound
	a.drops.MultiLine += drops.MultiLine
	a.drops.NoOp += drops.NoOp
	a.drops.Repeated += drops.Repeated
	a.drops.Unparsable += drops.Unparsable
	a.mu.Unlock()
	a.log.Debug("mutants parsed", zap.String("kind", kind), zap.Int("kept", len(ms)), zap.Int("dropped", drops.Total()))
	return ms, nil
}

// repeats reports whether msgs repeat a prompt already sent about the method, and records them.
func (a *MutantAgent) repeats(s *agent.Subject, msgs []Message) bool {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Role + "\x00" + m.Content + "\x00")
	}
	key := subjectKey(s)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sent[key] == nil {
		a.sent[key] = map[string]bool{}
	}
	if a.sent[key][b.String()] {
		a.skipped++
		return true
	}
	a.sent[key][b.String()] = true
	return false
}

// Mixed lets the LLM's M and the rule-based M feed one pool: both play every move (in
// parallel), the LLM's mutants first; a mutant both propose keeps the LLM's origin (the same
// change has the same id). When the LLM fails for another reason than cancellation, the
// rule-based mutants still come, and the failure is logged.
type Mixed struct {
	LLM, Rules agent.MutantAgent
	Log        *zap.Logger
}

var _ agent.MutantAgent = Mixed{}

// InitialMutants is both agents' first move.
func (m Mixed) InitialMutants(ctx context.Context, s *agent.Subject) ([]mutants.Mutant, error) {
	return m.both(ctx, func(a agent.MutantAgent) ([]mutants.Mutant, error) { return a.InitialMutants(ctx, s) })
}

// MoreMutants is both agents' later move.
func (m Mixed) MoreMutants(ctx context.Context, s *agent.Subject, fb agent.Feedback) ([]mutants.Mutant, error) {
	return m.both(ctx, func(a agent.MutantAgent) ([]mutants.Mutant, error) { return a.MoreMutants(ctx, s, fb) })
}

func (m Mixed) both(ctx context.Context, move func(agent.MutantAgent) ([]mutants.Mutant, error)) ([]mutants.Mutant, error) {
	var (
		wg               sync.WaitGroup
		fromLLM, fromRul []mutants.Mutant
		llmErr, ruleErr  error
	)
	wg.Add(1)
	go func() { defer wg.Done(); fromLLM, llmErr = move(m.LLM) }()
	if m.Rules != nil {
		fromRul, ruleErr = move(m.Rules)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if llmErr != nil {
		if m.Rules == nil {
			return nil, llmErr
		}
		log := m.Log
		if log == nil {
			log = zap.NewNop()
		}
		log.Warn("the LLM's mutant agent failed; the rule-based mutants still play", zap.Error(llmErr))
	}
	if ruleErr != nil {
		return nil, ruleErr
	}
	seen := map[string]bool{}
	var out []mutants.Mutant
	for _, ms := range [][]mutants.Mutant{fromLLM, fromRul} {
		for _, mu := range ms {
			if !seen[mu.ID] {
				seen[mu.ID] = true
				out = append(out, mu)
			}
		}
	}
	return out, nil
}
