package main

import (
	"bytes"
	"context"
	"flag"
	"slices"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestVersion(t *testing.T) {
	code, out, errOut := runCLI("version")
	if code != 0 || !strings.HasPrefix(out, "advertest 0.1.0-dev (go1.") || errOut != "" {
		t.Fatalf("version: %d %q %q", code, out, errOut)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "missing command"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"lsp", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"lsp", "--log-level", "loud"}, `want debug, info, warn or error, got "loud"`},
		{[]string{"lsp", "extra"}, `unexpected argument "extra"`},
		{[]string{"version", "--stdio"}, "flag provided but not defined"},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "usage: advertest") {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and a usage message with %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"help", "lsp"}, {"lsp", "-h"}} {
		code, out, _ := runCLI(args...)
		if code != 0 || !strings.Contains(out, "usage: advertest") {
			t.Errorf("%q: status %d, stdout %q", args, code, out)
		}
	}
	if _, out, _ := runCLI("help", "lsp"); !strings.Contains(out, "--log-level LEVEL") || !strings.Contains(out, "--stdio") {
		t.Errorf("lsp help lists no flags: %q", out)
	}
}

// TestParseInterleaved covers the contract later subcommands (run, mutate)
// rely on: flags before or after the positional argument.
func TestParseInterleaved(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		positional []string
		rounds     int
		json       string
	}{
		{[]string{"--rounds", "3", "A.java:12", "--json", "-"}, []string{"A.java:12"}, 3, "-"},
		{[]string{"A.java", "--method", "clamp", "--rounds=7"}, []string{"A.java"}, 7, ""},
		{[]string{"A.java:1", "B.java:2"}, []string{"A.java:1", "B.java:2"}, 5, ""},
		{[]string{"--rounds", "1", "--", "--json", "x"}, []string{"--json", "x"}, 1, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		rounds := fs.Int("rounds", 5, "")
		jsonOut := fs.String("json", "", "")
		fs.String("method", "", "")
		got, err := parseInterleaved(fs, tc.args)
		if err != nil || !slices.Equal(got, tc.positional) || *rounds != tc.rounds || *jsonOut != tc.json {
			t.Errorf("%q: positional %q rounds %d json %q err %v; want %q %d %q", tc.args, got, *rounds, *jsonOut, err, tc.positional, tc.rounds, tc.json)
		}
	}
}
