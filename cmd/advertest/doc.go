// Command advertest is the AdverTest language server and its command line.
//
//	advertest lsp [--log FILE] [--log-level debug|info|warn|error] [--stdio] [--config FILE] [--set NAME=VALUE]
//	advertest run|mutate TARGET... [flags]
//	advertest merge REPORT... [flags]
//	advertest version
//
// main is a few lines; cli.go holds the subcommand framework (flags before
// or after positional arguments, exit status 2 with a usage message on
// stderr for bad usage), and each subcommand has its own file. run and
// mutate share method.go (one method: today's table and report), targets.go
// and many.go (any other target: the run over many methods), outputs.go (the
// report formats and --fail-under, also merge's); usage.go says in the CLI's
// terms (LINE, --method, --diff) what the core finds wrong with a request;
// settingsflags.go reads --config and --set (lsp's initial settings too). See
// docs/contracts.md.
package main
