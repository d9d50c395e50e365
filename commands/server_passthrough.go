package commands

import (
	"context"
	"os"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// passthroughMarker is set in the environment of the server that
// `loams dev|standalone|cluster` hands over to. Finding it set means the
// "server" was this CLI again (a misconfigured LOAMS_SERVER_BINARY, or a
// loams on PATH): refuse instead of recursing without end.
const passthroughMarker = "LOAMS_SERVER_PASSTHROUGH"

// newServerCmd forwards `loams dev|standalone|cluster …` verbatim to the
// Loams server binary, so commands from the server's docs keep working.
// On Unix the server replaces this process (same pid, same signals), so
// killing `loams dev` kills the server and no orphan can outlive it.
// serverPassthroughOptions is one `loams <verb> ARGS…` handed to the server.
type serverPassthroughOptions struct {
	Verb string   // the server's own command (dev, …)
	Args []string // passed on unparsed
}

func newServerCmd(f *Factory, name, usage string) *cli.Command {
	return &cli.Command{
		Name:            name,
		Usage:           usage,
		Description:     describe("Runs the Loams server binary's own `"+name+"` command with the same arguments.", "loams "+name+" --help"),
		SkipFlagParsing: true,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runServerPassthrough(ctx, f, &serverPassthroughOptions{Verb: name, Args: cmd.Args().Slice()})
		},
	}
}

func runServerPassthrough(ctx context.Context, f *Factory, opts *serverPassthroughOptions) error {
	name := opts.Verb
	if via := f.Getenv(passthroughMarker); via != "" {
		return errs.New(errs.Usage, "point LOAMS_SERVER_BINARY or the profile's server_binary at the Loams server, not at this CLI",
			"`loams %s` was started by `loams %s` itself: %s is this CLI, not the Loams server", name, name, via).With("server_binary", via)
	}
	h, err := f.Home()
	if err != nil {
		return err
	}
	p, err := f.Profile()
	if err != nil {
		return err
	}
	bin, err := stack.Locate(h, "", p.ServerBinary, f.Getenv)
	if err != nil {
		return err
	}
	return execServer(f, append([]string{bin, name}, opts.Args...), append(os.Environ(), passthroughMarker+"="+bin))
}
