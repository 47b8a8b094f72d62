package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/settings"
)

// settingsSection is the workspace/configuration section of advertest's settings.
const settingsSection = "advertest"

// sectionOf returns the advertest object of initializationOptions or of didChangeConfiguration's
// settings: their "advertest" member when they have one, else the whole value.
func sectionOf(v any) []byte {
	if v == nil {
		return nil
	}
	if obj, ok := v.(map[string]any); ok {
		if inner, ok := obj[settingsSection]; ok {
			v = inner
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// applySettings makes the settings from initializationOptions overlaid with the client's
// configuration (either may be nil) and reports bad values with one message.
func (h *Handler) applySettings(ctx context.Context, configuration []byte) {
	h.mu.Lock()
	init := h.initOptions
	h.mu.Unlock()
	s := baseSettings(h.opts)
	s, problems := settings.Parse(s, init)
	s, more := settings.Parse(s, configuration)
	problems = append(problems, more...)
	h.mu.Lock()
	h.settings = s
	h.mu.Unlock()
	h.jobs.SetMax(s.JobsMax)
	if len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.String()
		}
		text := "AdverTest settings: " + strings.Join(msgs, "; ")
		h.logger.Info("bad settings", zap.Strings("problems", msgs))
		if err := h.session.Client().ShowMessage(ctx, protocol.MessageTypeWarning, text); err != nil {
			h.logger.Debug("showMessage", zap.Error(err))
		}
	}
	h.checkSandbox(s)
}

// sessionEvents shows the warnings of work outside a job (the sandbox decision).
type sessionEvents struct {
	app.NoEvents
	h *Handler
}

func (e sessionEvents) Warning(w app.Warning) { e.h.warn(w) }

// checkSandbox decides the sandbox for the settings s, as every job will: the core logs the
// decision and shows an uncontained one's warning once; sandbox.mode on without a sandbox,
// which fails every job, is shown once too.
func (h *Handler) checkSandbox(s settings.Settings) {
	_, err := h.core.Sandbox(s, sessionEvents{h: h})
	if err == nil {
		return
	}
	h.mu.Lock()
	first := h.sandboxRefusal != err.Error()
	h.sandboxRefusal = err.Error()
	h.mu.Unlock()
	if first {
		h.warn(app.Warning{Message: err.Error() + ": every job fails until it can", Err: err})
	}
}

// pullConfiguration asks the client for the advertest section (when it supports
// workspace/configuration) and applies it.
func (h *Handler) pullConfiguration(ctx context.Context) {
	caps := h.ClientCapabilities()
	if caps.Workspace == nil || !caps.Workspace.Configuration {
		h.applySettings(ctx, nil)
		return
	}
	values, err := h.session.Client().Configuration(ctx, []protocol.ConfigurationItem{{Section: settingsSection}})
	if err != nil {
		h.logger.Info("workspace/configuration failed; keeping the initialization options", zap.Error(err))
		h.applySettings(ctx, nil)
		return
	}
	var raw []byte
	if len(values) > 0 && !bytes.Equal(bytes.TrimSpace(values[0]), []byte("null")) {
		raw = values[0]
	}
	h.applySettings(ctx, raw)
}

// Initialized pulls the configuration in the background (the client answers
// workspace/configuration only after this notification has been handled).
func (h *Handler) Initialized(context.Context, *protocol.InitializedParams) error {
	h.session.Go("configuration", h.pullConfiguration)
	return nil
}

// DidChangeConfiguration pulls the configuration again, or, from a client without
// workspace/configuration, takes the settings the notification carries.
func (h *Handler) DidChangeConfiguration(_ context.Context, params *protocol.DidChangeConfigurationParams) error {
	caps := h.ClientCapabilities()
	if caps.Workspace != nil && caps.Workspace.Configuration {
		h.session.Go("configuration", h.pullConfiguration)
		return nil
	}
	raw := sectionOf(params.Settings)
	h.session.Go("configuration", func(ctx context.Context) { h.applySettings(ctx, raw) })
	return nil
}
