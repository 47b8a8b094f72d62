// Command advertest is the AdverTest language server and its command line.
//
//	advertest lsp [--log FILE] [--log-level debug|info|warn|error] [--stdio]
//	advertest version
//
// main is a few lines; cli.go holds the subcommand framework (flags before
// or after positional arguments, exit status 2 with a usage message on
// stderr for bad usage), and each subcommand has its own file.
package main
