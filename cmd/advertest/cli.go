package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// Exit statuses shared by every subcommand (docs/contracts.md, "Command line").
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitBelow       = 3 // the mutation score is below --fail-under
	exitInterrupted = 130
)

// env is what a subcommand may touch of the process, so tests can run
// subcommands in-process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// lockedWriter is a writer that any goroutine may write to: one Write at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// underlying is the writer w writes to in the end (a lockedWriter's own).
func underlying(w io.Writer) io.Writer {
	if l, ok := w.(*lockedWriter); ok {
		return l.w
	}
	return w
}

// command is one subcommand. setFlags declares its flags on fs and returns
// the function that runs it with the positional arguments, after parsing.
type command struct {
	name     string
	args     string // synopsis of the positional arguments, "" for none
	summary  string
	minArgs  int
	maxArgs  int // -1: no limit
	setFlags func(fs *flag.FlagSet) func(ctx context.Context, e *env, args []string) int
}

// commands lists the subcommands in the order usage shows them.
func commands() []*command {
	return []*command{lspCommand(), runCommand(), mutateCommand(), mergeCommand(), versionCommand()}
}

// usageError is bad usage: its message goes to stderr with the usage text,
// and the exit status is 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, e *env) int {
	// Stderr is written from several goroutines (the progress and the warnings of the
	// engine's goroutines and the use case's, the logger): one lock for every write.
	e = &env{stdin: e.stdin, stdout: e.stdout, stderr: &lockedWriter{w: e.stderr}}
	cmds := commands()
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "advertest: missing command")
		printUsage(e.stderr, cmds)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			if c := find(cmds, rest[0]); c != nil {
				fs := newFlagSet(c)
				c.setFlags(fs)
				printCommandUsage(e.stdout, c, fs)
				return exitOK
			}
		}
		printUsage(e.stdout, cmds)
		return exitOK
	}
	c := find(cmds, name)
	if c == nil {
		fmt.Fprintf(e.stderr, "advertest: unknown command %q\n", name)
		printUsage(e.stderr, cmds)
		return exitUsage
	}
	fs := newFlagSet(c)
	runCmd := c.setFlags(fs)
	positional, err := parseInterleaved(fs, rest)
	if errors.Is(err, flag.ErrHelp) {
		printCommandUsage(e.stdout, c, fs)
		return exitOK
	}
	if err == nil {
		err = checkArgCount(c, positional)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "advertest %s: %v\n", c.name, err)
		printCommandUsage(e.stderr, c, fs)
		return exitUsage
	}
	return runCmd(ctx, e, positional)
}

func find(cmds []*command, name string) *command {
	i := slices.IndexFunc(cmds, func(c *command) bool { return c.name == name })
	if i < 0 {
		return nil
	}
	return cmds[i]
}

func newFlagSet(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet("advertest "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and usage are printed by run
	fs.Usage = func() {}
	return fs
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments; everything after "--" is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usagef("%v", err)
		}
		consumed := len(args) - fs.NArg()
		rest := fs.Args()
		if consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func checkArgCount(c *command, positional []string) error {
	n := len(positional)
	switch {
	case c.maxArgs == 0 && n > 0:
		return usagef("unexpected argument %q", positional[0])
	case n < c.minArgs:
		return usagef("missing %s", c.args)
	case c.maxArgs >= 0 && n > c.maxArgs:
		return usagef("too many arguments: %s", strings.Join(positional, " "))
	}
	return nil
}

func printUsage(w io.Writer, cmds []*command) {
	fmt.Fprintln(w, "usage: advertest COMMAND [flags] [arguments]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'advertest help COMMAND' for a command's flags.")
}

func printCommandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	synopsis := "advertest " + c.name
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		synopsis += " [flags]"
	}
	if c.args != "" {
		synopsis += " " + c.args
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", synopsis, c.summary)
	if hasFlags {
		fmt.Fprintln(w, "\nflags:")
		fs.VisitAll(func(f *flag.Flag) {
			name, usage := flag.UnquoteUsage(f)
			line := "  --" + f.Name
			if name != "" {
				line += " " + name
			}
			fmt.Fprintf(w, "%s\n    \t%s", line, usage)
			if f.DefValue != "" && f.DefValue != "false" {
				fmt.Fprintf(w, " (default %s)", f.DefValue)
			}
			fmt.Fprintln(w)
		})
	}
}
