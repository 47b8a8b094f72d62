package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/advertest/advertest-lsp/buildtools/sandbox"
)

// version is the release, set at build time with
// -ldflags "-X main.version=1.2.3".
var version = "0.1.0-dev"

func main() {
	// A descriptor this process inherited without close-on-exec would reach every child, the
	// sandboxed workers included (docs/sandbox.md, "Descriptors"). The starters of bwrap and
	// the build tools mark them again, and fail, should this fail.
	if err := sandbox.SealDescriptors(); err != nil {
		fmt.Fprintf(os.Stderr, "advertest: warning: %v\n", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
	stop()
	os.Exit(code)
}
