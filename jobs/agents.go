package jobs

import (
	"fmt"
	"os"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/llm"
	"github.com/advertest/advertest-lsp/loop/offline"
	"github.com/advertest/advertest-lsp/settings"
)

// AgentOptions are what making a job's agents needs besides the settings.
type AgentOptions struct {
	// Getenv reads the environment: the LLM's API key and defaults (nil: os.Getenv).
	Getenv func(string) string
	// CacheDir holds the offline agent's cache ("": the user's cache folder).
	CacheDir string
	Logger   *zap.Logger
}

func (o AgentOptions) withDefaults() AgentOptions {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	return o
}

// Agents makes T and M for a job on a warm project, as the agents setting says: the LLM's
// with llm, or with auto when a model and an API key (or a loopback base URL) are
// configured; else the offline ones, made once per warm project and closed with it.
// configure adds the LLM's budget and usage hooks to the job's loop configuration.
func Agents(w *Warm, s settings.Settings, opts AgentOptions) (players loop.Agents, configure func(*loop.Config), err error) {
	opts = opts.withDefaults()
	configure = func(*loop.Config) {}
	lc := s.LLMConfig()
	useLLM := false
	switch s.Agents {
	case "llm":
		if err := lc.Validate(opts.Getenv); err != nil {
			return loop.Agents{}, nil, fmt.Errorf("agents llm: %w", err)
		}
		useLLM = true
	case "auto":
		useLLM = lc.Configured(opts.Getenv) && lc.Validate(opts.Getenv) == nil
	}
	if useLLM {
		client, err := llm.NewClient(lc, llm.ClientOptions{Logger: opts.Logger, Getenv: opts.Getenv})
		if err != nil {
			return loop.Agents{}, nil, err
		}
		players, _, _ = llm.Agents(client, w.Project.Pool, loop.RuleMutantAgent{}, opts.Logger)
		return players, func(c *loop.Config) { c.Budget, c.Usage = client.Budget, client.Usage }, nil
	}
	t, err := w.Extra("offline", func() (any, func() error, error) {
		a, err := offline.New(w.Project.Pool, offline.Options{Logger: opts.Logger, CacheDir: opts.CacheDir})
		if err != nil {
			return nil, nil, err
		}
		return a, a.Close, nil
	})
	if err != nil {
		return loop.Agents{}, nil, err
	}
	return loop.Agents{T: t.(*offline.Agent), M: loop.RuleMutantAgent{}}, configure, nil
}
