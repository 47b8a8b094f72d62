package llm

import (
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/loop"
)

// Agents are the players of an LLM run over one client, for the CLI and the server alike: the
// LLM's T, the LLM's M beside the rule-based M rules (Mixed), which plays the operators of
// the setting mutants.operators, and the equivalence judge. Give the loop client.Budget and
// client.Usage as its Config's Budget and Usage hooks.
func Agents(client *Client, pool Runner, rules loop.RuleMutantAgent, log *zap.Logger) (loop.Agents, *TestAgent, *MutantAgent) {
	t := NewTestAgent(client, pool, log)
	m := NewMutantAgent(client, log)
	return loop.Agents{T: t, M: Mixed{LLM: m, Rules: rules, Log: log}, Judge: NewJudge(client, log)}, t, m
}
