package llm

import (
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/loop"
)

// Agents are the players of an LLM run over one client, for the CLI and the server alike: the
// LLM's T, and the LLM's M beside the rule-based M (Mixed). Give the loop client.Budget and
// client.Usage as its Config's Budget and Usage hooks.
func Agents(client *Client, pool Runner, log *zap.Logger) (loop.Agents, *TestAgent, *MutantAgent) {
	t := NewTestAgent(client, pool, log)
	m := NewMutantAgent(client, log)
	return loop.Agents{T: t, M: Mixed{LLM: m, Rules: loop.RuleMutantAgent{}, Log: log}}, t, m
}
