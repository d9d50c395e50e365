package commands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/internal/redact"
)

// Main runs loams with the process's arguments and returns its exit code.
// Only cmd/loams calls os.Exit.
func Main() int {
	f := &Factory{IO: iostreams.System(), Getenv: os.Getenv, Now: time.Now, Executable: os.Executable}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	// Off the critical path: registering starts the runtime's signal loop.
	// `mcp serve` answers nothing before it is done (Factory.signalsReady).
	ready := make(chan struct{})
	f.signalsReady = ready
	go func() {
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		close(ready)
		<-sigs
		close(interrupted)
		cancel()
		// A second signal means "now": do not wait for cleanup.
		<-sigs
		os.Exit(errs.Interrupted.ExitCode())
	}()
	return Run(ctx, f, os.Args, interrupted)
}

// Run executes args against a fresh command tree and renders any error.
// interrupted, when closed, turns a failure into `interrupted` (exit 130).
func Run(ctx context.Context, f *Factory, args []string, interrupted <-chan struct{}) int {
	if f.interrupt == nil {
		f.interrupt = interrupted
	}
	var err error
	if opts, ok := mcpServeFastArgs(args); ok {
		resolveFastGlobals(f, opts)
		err = runMCPServe(ctx, f, opts)
	} else {
		root := NewRoot(f)
		err = root.Run(ctx, versionFlagAsCommand(root, args))
	}
	if err == nil {
		if jsonRequested(f, args) {
			f.flushWarnings()
		}
		updateNotice(f, args)
		return 0
	}
	var silent silentExit
	if errors.As(err, &silent) {
		return int(silent)
	}
	if interrupted != nil {
		select {
		case <-interrupted:
			err = errs.New(errs.Interrupted, "run the command again when you are ready", "interrupted").Wrap(err)
		default:
		}
	}
	if r, ok := err.(*reportedFailure); ok { // doctor: the report is the output
		if !jsonRequested(f, args) {
			fmt.Fprintf(f.IO.ErrOut, "error: %s\nhint: %s\n", r.message, r.hint)
		}
		return r.exit
	}
	e := classify(err)
	renderError(f, args, e)
	return e.ExitCode()
}

// silentExit ends the process with its code and prints nothing: `mcp
// serve` stopped by Ctrl-C has nothing to report (130, no error line).
type silentExit int

func (s silentExit) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// classify finds the coded error in err's chain. Usage errors are coded
// where urfave reports them (OnUsageError on every command, groupAction
// for unknown subcommands), so the type decides here, never the text: an
// uncoded error is internal, whatever words its message happens to hold.
func classify(err error) *errs.Error {
	return errs.As(err)
}

// renderError prints e on stderr: one JSON object in json mode, else two
// human lines. stdout is never touched.
func renderError(f *Factory, args []string, e *errs.Error) {
	if jsonRequested(f, args) {
		if w := f.takeWarnings(); len(w) > 0 {
			e.With("warnings", w)
		}
		output.WriteJSON(f.IO.ErrOut, map[string]any{"error": e.Object()})
		return
	}
	output.WriteErrorText(redact.Writer{W: f.IO.ErrOut}, e)
}

// jsonRequested answers even when flag parsing failed before the root's
// Before ran, so usage errors honour json mode.
func jsonRequested(f *Factory, args []string) bool {
	if f.Globals.Output != "" {
		return f.Globals.Output == output.JSON
	}
	format := f.Getenv("LOAMS_OUTPUT")
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		for _, name := range []string{"--output", "-output", "-o", "--o"} {
			if a == name && i+1 < len(args) {
				format = args[i+1]
			} else if v, ok := strings.CutPrefix(a, name+"="); ok {
				format = v
			}
		}
	}
	return format == string(output.JSON)
}

// versionFlagAsCommand turns `loams --version` (and -V), which people type
// from habit, into `loams version`. Only when no command follows: a
// subcommand's own --version (server install) keeps its meaning.
func versionFlagAsCommand(root *cli.Command, args []string) []string {
	at := -1
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--version" || a == "-version" || a == "-V":
			at = i
		case a == "--":
			return args
		case !strings.HasPrefix(a, "-"):
			// A command, or the value of a global flag before it
			// (`-o json --version`).
			if i > 1 && globalTakesValue(root, args[i-1]) {
				continue
			}
			return args
		}
	}
	if at < 0 {
		return args
	}
	out := append(append([]string{}, args[:at]...), args[at+1:]...)
	return append(out, "version")
}

// globalTakesValue reports whether a, a root flag, consumes the next
// argument as its value (every root flag but the booleans, unless given
// as --flag=value).
func globalTakesValue(root *cli.Command, a string) bool {
	if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
		return false
	}
	name := strings.TrimLeft(a, "-")
	for _, fl := range root.Flags {
		if slices.Contains(fl.Names(), name) {
			_, isBool := fl.(*cli.BoolFlag)
			return !isBool
		}
	}
	return false
}
