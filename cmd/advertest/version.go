package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
)

func versionCommand() *command {
	return &command{
		name:    "version",
		summary: "print the version of advertest and of Go it was built with",
		setFlags: func(*flag.FlagSet) func(context.Context, *env, []string) int {
			return func(_ context.Context, e *env, _ []string) int {
				fmt.Fprintf(e.stdout, "advertest %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
				return exitOK
			}
		},
	}
}
