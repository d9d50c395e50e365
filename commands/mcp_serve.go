package commands

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
)

type mcpServeOptions struct {
	stack      string
	projectDir string
	// readOnly and tools choose the tools the server exposes (else
	// LOAMS_MCP_TOOLS, else all eight).
	readOnly bool
	tools    string
	// profile and endpoint are the global flags when the fast path parsed
	// them (as `mcp install` writes them after `serve`).
	profile, endpoint string
}

func newMCPServeCmd(f *Factory) *cli.Command {
	opts := &mcpServeOptions{}
	return &cli.Command{
		Name:  "serve",
		Usage: "Run the stdio MCP server that coding agents start",
		Description: describe("Speaks MCP (JSON-RPC, one message per line) on stdin and stdout; logs go to\n"+
			"stderr (warnings) and $LOAMS_HOME/logs/mcp.log. Agents start it themselves:\n"+
			"register it with `loams mcp install --agent AGENT`.",
			"loams mcp serve", "loams mcp serve --stack dev --project-dir ~/src/app", "loams mcp serve --read-only",
			"loams mcp serve --tools search_docs,stack_status,env_export"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "stack", Usage: "stack the tools use when none is named (default: the profile's default_stack)", Destination: &opts.stack},
			&cli.StringFlag{Name: "project-dir", Usage: "project directory for env_export and add_package", Destination: &opts.projectDir},
			&cli.BoolFlag{Name: "read-only", Usage: "expose only the tools that change nothing (search_docs, get_sdk_snippet, loams_info, stack_status)", Destination: &opts.readOnly},
			&cli.StringFlag{Name: "tools", Usage: "expose only these tools, comma-separated (default: all eight, or LOAMS_MCP_TOOLS)", Destination: &opts.tools},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runMCPServe(ctx, f, opts)
		},
	}
}

// ttyGreeting is for a person who ran `loams mcp serve` by hand.
const ttyGreeting = "loams mcp serve: the MCP server that coding agents start themselves (JSON-RPC on stdin/stdout); " +
	"register it with `loams mcp install --agent AGENT`. Press Ctrl-D to quit."

func runMCPServe(ctx context.Context, f *Factory, opts *mcpServeOptions) error {
	// Installing signal handlers starts the runtime's signal loop (about
	// 0.15 ms): it runs beside the start, after Main's, and the server's
	// first answer waits for it. A client that closes our stdout gets EPIPE
	// on the next write instead of a SIGPIPE kill: the server logs it and
	// stops. SIGINT and SIGTERM both cancel ctx (Main); only SIGINT exits 130.
	// SIGHUP (the agent's terminal went away) ends it like SIGTERM: answers
	// in flight, exit 0, instead of the default kill with no answer.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sigint, hup := make(chan os.Signal, 1), make(chan os.Signal, 1)
	ready, mainReady := make(chan struct{}), f.signalsReady
	go func() {
		if mainReady != nil {
			<-mainReady
		}
		signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
		signal.Notify(sigint, os.Interrupt)
		signal.Notify(hup, syscall.SIGHUP)
		close(ready)
	}()
	go func() {
		select {
		case <-hup:
			cancel()
		case <-ctx.Done():
		}
	}()
	f.signalsReady = ready
	defer signal.Stop(sigint)
	defer signal.Stop(hup)
	srv, closeFn, err := f.mcpServer(opts)
	if err != nil {
		return err
	}
	defer closeFn()
	if f.IO.StdinTTY {
		// A person reads this line as "ready": a Ctrl-C after it must find
		// the SIGINT handler installed, or it would exit 0 instead of 130.
		<-ready
		fmt.Fprintln(f.IO.ErrOut, ttyGreeting)
	}
	if err := srv.Serve(ctx, f.IO.In, f.IO.Out); err != nil {
		return err
	}
	select {
	case <-sigint:
		return silentExit(errs.Interrupted.ExitCode())
	default:
		return nil
	}
}
