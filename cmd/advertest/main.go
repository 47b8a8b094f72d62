package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// version is the release, set at build time with
// -ldflags "-X main.version=1.2.3".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
	stop()
	os.Exit(code)
}
