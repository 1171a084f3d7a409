// Command winnow is a context engine for LLM coding agents. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/winnowhq/winnow/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
