package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/advertest/advertest-lsp/app"
	"github.com/advertest/advertest-lsp/loop"
)

// The command line's own words for what the core finds wrong with a request: the core (app,
// loop) says what is wrong without naming flags, since the server shares it; these name
// TARGET's LINE, --method and --diff.

// splitFileLine splits TARGET "FILE:LINE" into the file and the 1-based line; a TARGET without
// a numeric ":LINE" suffix gives line 0.
func splitFileLine(arg string) (file string, line int, err error) {
	i := strings.LastIndexByte(arg, ':')
	if i < 0 {
		return arg, 0, nil
	}
	n, convErr := strconv.Atoi(arg[i+1:])
	if convErr != nil {
		// A path with a colon in it and no line.
		return arg, 0, nil
	}
	if n < 1 {
		return "", 0, usagef("bad target %q: LINE is 1-based", arg)
	}
	return arg[:i], n, nil
}

// checkOneMethod refuses a TARGET that picks one method twice (FILE:LINE and --method) or that
// is a folder.
func checkOneMethod(file string, line int, method string) error {
	if line > 0 && method != "" {
		return usagef("give either FILE:LINE or --method NAME, not both")
	}
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return usagef("%s is a folder: LINE and --method pick a method of a FILE", file)
	}
	return nil
}

// isUsage reports bad usage (exit status 2): the CLI's own usage errors and the mistakes of the
// request the core finds (loop.RequestError: no method at LINE, an unknown --diff revision).
func isUsage(err error) bool {
	var u *usageError
	return errors.As(err, &u) || loop.IsRequestError(err)
}

// describe is err as the CLI says it: a failure to read the changes since a revision names
// --diff.
func describe(err error) string {
	var rev *app.RevisionError
	if errors.As(err, &rev) {
		return fmt.Sprintf("--diff %s: %v", rev.Rev, rev.Err)
	}
	return err.Error()
}
