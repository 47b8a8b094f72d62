package app

import (
	"fmt"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm"
	"github.com/advertest/advertest-lsp/loop/mutants"
	"github.com/advertest/advertest-lsp/loop/offline"
	"github.com/advertest/advertest-lsp/settings"
)

// AgentChoice is who plays, as the settings say.
type AgentChoice struct {
	// LLM is set for the LLM's agents, configured by Config; else the offline ones play.
	LLM    bool
	Config llm.Config
	// Warning says why agents auto plays offline although an LLM is configured ("" when it
	// does not, or was not asked to).
	Warning string
}

// ChooseAgents picks the agents the settings s say, under the sandbox decision status:
//   - agents offline: the offline ones;
//   - agents llm: the LLM's; an error when its configuration is not usable (no model, no
//     key, a plain http:// URL to another host) or when LLM-written code could not run in a
//     sandbox (status.AllowLLMCode);
//   - agents auto: the LLM's when a model and an API key, or a loopback base URL, are
//     configured, its configuration is usable and its code may run; else offline, with a
//     warning saying why when an LLM is configured but cannot play.
func ChooseAgents(s settings.Settings, getenv func(string) string, status sandbox.Status) (AgentChoice, error) {
	c := AgentChoice{Config: s.LLMConfig()}
	switch s.Agents {
	case "llm":
		if err := c.Config.Validate(getenv); err != nil {
			return c, fmt.Errorf("agents llm: %w", err)
		}
		if err := status.AllowLLMCode(); err != nil {
			return c, fmt.Errorf("agents llm: %w", err)
		}
		c.LLM = true
	case "auto":
		if !c.Config.Configured(getenv) {
			return c, nil
		}
		if err := c.Config.Validate(getenv); err != nil {
			c.Warning = "agents auto plays offline: the LLM's configuration is not usable: " + err.Error()
			return c, nil
		}
		if err := status.AllowLLMCode(); err != nil {
			c.Warning = "agents auto plays offline: " + err.Error()
			return c, nil
		}
		c.LLM = true
	}
	return c, nil
}

// agents makes T and M on a warm project: the LLM's (its M beside the rule-based M, on one
// client drawing on the Core's budget account), or the offline ones (the search-based T, made
// once per warm project and closed with it). The rule-based M plays the operators sel.
// configure adds the LLM's budget and usage hooks to the run's configuration.
func (c *Core) agents(w *Warm, choice AgentChoice, sel mutants.Selection) (players loop.Agents, configure func(*loop.Config), err error) {
	rules := loop.RuleMutantAgent{Operators: sel}
	if choice.LLM {
		client, err := llm.NewClient(choice.Config, llm.ClientOptions{Logger: c.log, Getenv: c.opts.Getenv, Budget: c.budgetAccount(llm.Budget{MaxTokens: choice.Config.Budget.MaxTokens, MaxUSD: choice.Config.Budget.MaxUSD})})
		if err != nil {
			return loop.Agents{}, nil, err
		}
		players, _, _ = llm.Agents(client, w.Project.Pool, rules, c.log)
		return players, func(cfg *loop.Config) { cfg.Budget, cfg.Usage = client.Budget, client.Usage }, nil
	}
	t, err := w.Extra("offline", func() (any, func() error, error) {
		a, err := offline.New(w.Project.Pool, offline.Options{Logger: c.log, CacheDir: c.opts.CacheDir})
		if err != nil {
			return nil, nil, err
		}
		return a, a.Close, nil
	})
	if err != nil {
		return loop.Agents{}, nil, err
	}
	return loop.Agents{T: t.(*offline.Agent), M: rules}, func(*loop.Config) {}, nil
}
