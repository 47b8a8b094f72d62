package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/advertest/advertest-lsp/handlers"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/settings"
)

func lspCommand() *command {
	return &command{
		name:    "lsp",
		summary: "serve the Language Server Protocol on stdin/stdout",
		setFlags: func(fs *flag.FlagSet) func(context.Context, *env, []string) int {
			logFile := fs.String("log", "", "write logs to `FILE` (appended) instead of stderr")
			level := logLevel(zapcore.WarnLevel)
			fs.Var(&level, "log-level", "log `LEVEL`: debug, info, warn or error")
			fs.Bool("stdio", false, "serve on stdin/stdout (the only transport; accepted because editors pass it)")
			var sf settingsFlags
			sf.register(fs)
			return func(ctx context.Context, e *env, _ []string) int {
				values, err := sf.values(os.Getenv)
				if err != nil {
					return usageFail(e, "lsp", err)
				}
				return runLSP(ctx, e, *logFile, zapcore.Level(level), settings.Settings{Values: values})
			}
		},
	}
}

// runLSP serves LSP; base are the settings the client's are laid over.
func runLSP(ctx context.Context, e *env, logFile string, level zapcore.Level, base settings.Settings) int {
	logger, closeLog, err := newLogger(logFile, level, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "advertest lsp: %v\n", err)
		return exitFailure
	}
	defer closeLog()

	// Stdout carries LSP frames only: anything in this process that prints
	// to os.Stdout by mistake goes to stderr instead.
	if f, ok := e.stdout.(*os.File); ok && f == os.Stdout {
		os.Stdout = os.Stderr
		defer func() { os.Stdout = f }()
	}

	logger.Info("advertest lsp starting", zap.String("version", version))
	err = server.Serve(ctx, server.Stdio(e.stdin, e.stdout), server.Config{
		Logger:     logger,
		NewHandler: handlers.NewFunc(handlers.Options{Version: version, Settings: &base}),
	})
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		logger.Warn("interrupted")
		return exitFailure
	default:
		logger.Warn("advertest lsp ends with status 1", zap.Error(err))
		return exitFailure
	}
}

// newLogger logs to path (appending) or, when path is "", to stderr.
func newLogger(path string, level zapcore.Level, stderr io.Writer) (*zap.Logger, func(), error) {
	var (
		sink    zapcore.WriteSyncer
		closeFn = func() {}
	)
	if path == "" {
		sink = zapcore.Lock(zapcore.AddSync(stderr))
	} else {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("opening log file: %w", err)
		}
		sink = zapcore.Lock(f)
		closeFn = func() { _ = f.Close() }
	}
	cfg := zap.NewProductionEncoderConfig()
	cfg.EncodeTime = zapcore.ISO8601TimeEncoder
	cfg.EncodeLevel = zapcore.CapitalLevelEncoder
	cfg.EncodeDuration = zapcore.StringDurationEncoder
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(cfg), sink, level)
	logger := zap.New(core)
	return logger, func() { _ = logger.Sync(); closeFn() }, nil
}

// logLevel is the --log-level flag: one of debug, info, warn, error.
type logLevel zapcore.Level

func (l *logLevel) String() string { return zapcore.Level(*l).String() }

func (l *logLevel) Set(s string) error {
	switch strings.ToLower(s) {
	case "debug":
		*l = logLevel(zapcore.DebugLevel)
	case "info":
		*l = logLevel(zapcore.InfoLevel)
	case "warn", "warning":
		*l = logLevel(zapcore.WarnLevel)
	case "error":
		*l = logLevel(zapcore.ErrorLevel)
	default:
		return fmt.Errorf("want debug, info, warn or error, got %q", s)
	}
	return nil
}
