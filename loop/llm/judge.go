package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/llm/prompts"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// Judge is the equivalence judge over an LLM: asked about a surviving mutant that T could not
// kill, it answers {"equivalent": bool, "reason": "...", "input": "..."} (docs/llm.md, "The
// judge"). The loop believes "not equivalent" only when a test built on the input kills the
// mutant.
type Judge struct {
	client *Client
	log    *zap.Logger
}

var _ agent.Judge = (*Judge)(nil)

// NewJudge makes the judge over client.
func NewJudge(client *Client, log *zap.Logger) *Judge {
	if log == nil {
		log = zap.NewNop()
	}
	return &Judge{client: client, log: log.Named("llm.judge")}
}

// Judge asks whether m is equivalent to the original. A reply that is not the JSON asked for
// is an error matching agent.ErrNoJudgement (no verdict).
func (j *Judge) Judge(ctx context.Context, s *agent.Subject, m mutants.Mutant) (agent.Judgement, error) {
	task := prompts.Task{Mutant: prompts.Mutant{Line: m.Line, Original: m.Original, Mutated: m.Mutated}}
	msgs, err := agentMessages("J", s, prompts.Judge, task, j.client.cfg.ContextTokens)
	if err != nil {
		return agent.Judgement{}, err
	}
	reply, err := j.client.Chat(ctx, "J."+prompts.Judge, msgs)
	if err != nil {
		return agent.Judgement{}, err
	}
	got, err := ParseJudgement(reply.Text)
	if err != nil {
		j.log.Info("the judge's reply is not usable: no verdict", zap.String("mutant", m.ID), zap.Error(err))
		return agent.Judgement{}, fmt.Errorf("%w: %v", agent.ErrNoJudgement, err)
	}
	return got, nil
}

// rawJudgement is the judge's JSON with its fields as they came, so that their types can be
// checked rather than coerced.
type rawJudgement struct {
	Equivalent json.RawMessage `json:"equivalent"`
	Reason     json.RawMessage `json:"reason"`
	Input      json.RawMessage `json:"input"`
}

// ParseJudgement reads the judge's reply strictly: one JSON object (in a ```json block, or
// bare amid chatter) with `equivalent` a JSON boolean, `reason` a non-empty string and `input`
// a string or null (it may be left out when equivalent). Anything else is an error saying
// what is wrong: no verdict is better than a misread one. Several objects that disagree are
// an error too.
func ParseJudgement(reply string) (agent.Judgement, error) {
	var candidates []string
	blocks, langs := fencedBlocks(reply)
	for i, b := range blocks {
		if langs[i] == "json" || strings.Contains(b, `"equivalent"`) {
			candidates = append(candidates, flatObjects(b)...)
		}
	}
	if len(candidates) == 0 {
		candidates = flatObjects(reply)
	}
	var (
		found    []agent.Judgement
		firstErr error
	)
	for _, c := range candidates {
		if !strings.Contains(c, `"equivalent"`) {
			continue
		}
		j, err := decodeJudgement(c)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		found = append(found, j)
	}
	switch {
	case len(found) == 0 && firstErr != nil:
		return agent.Judgement{}, firstErr
	case len(found) == 0:
		return agent.Judgement{}, errors.New(`no JSON object with "equivalent" in the reply`)
	}
	for _, j := range found[1:] {
		if j.Equivalent != found[0].Equivalent {
			return agent.Judgement{}, errors.New("the reply holds answers that disagree")
		}
	}
	return found[0], nil
}

func decodeJudgement(obj string) (agent.Judgement, error) {
	var raw rawJudgement
	if err := json.Unmarshal([]byte(obj), &raw); err != nil {
		return agent.Judgement{}, fmt.Errorf("the answer is not JSON: %w", err)
	}
	var out agent.Judgement
	eq := bytes.TrimSpace(raw.Equivalent)
	switch string(eq) {
	case "true":
		out.Equivalent = true
	case "false":
	default:
		return out, fmt.Errorf(`"equivalent" must be true or false, got %s`, orMissing(eq))
	}
	if err := json.Unmarshal(raw.Reason, &out.Reason); err != nil || len(raw.Reason) == 0 {
		return out, fmt.Errorf(`"reason" must be a string, got %s`, orMissing(raw.Reason))
	}
	out.Reason = strings.TrimSpace(out.Reason)
	if out.Reason == "" {
		return out, errors.New(`"reason" is empty`)
	}
	if in := bytes.TrimSpace(raw.Input); len(in) > 0 && string(in) != "null" {
		if err := json.Unmarshal(in, &out.Input); err != nil {
			return out, fmt.Errorf(`"input" must be a string, got %s`, in)
		}
		out.Input = strings.TrimSpace(out.Input)
	}
	if out.Equivalent {
		out.Input = "" // an input is only meaningful for "not equivalent"
	}
	return out, nil
}

func orMissing(v []byte) string {
	if len(bytes.TrimSpace(v)) == 0 {
		return "nothing"
	}
	return string(v)
}
