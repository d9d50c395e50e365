package commands

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/inert"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/internal/redact"
	"loams.dev/cli/stack"
)

type stackLogsOptions struct {
	Name   string // "" asks the target rule
	Lines  int
	Follow bool
}

func newStackLogsCmd(f *Factory) *cli.Command {
	opts := &stackLogsOptions{}
	return &cli.Command{
		Name:  "logs",
		Usage: "Print the last lines of a stack's server log",
		Description: describe("--follow keeps printing new lines until Ctrl-C (not with --output json).",
			"loams stack logs dev", "loams stack logs dev --lines 500 --follow"),
		Flags: []cli.Flag{nameFlag(&opts.Name, false),
			&cli.IntFlag{Name: "lines", Value: 100, Usage: "how many lines to print", Destination: &opts.Lines},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep printing new lines", Destination: &opts.Follow}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackLogs(ctx, f, opts)
		},
	}
}

func runStackLogs(ctx context.Context, f *Factory, opts *stackLogsOptions) error {
	n, err := f.stackName(opts.Name)
	if err != nil {
		return err
	}
	if opts.Follow && f.JSON() {
		return errs.New(errs.Usage, "drop --follow, or use --output table", "--follow cannot be combined with --output json")
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	d, err := sv.Describe(ctx, n)
	if err != nil {
		return err
	}
	tail, err := stack.Tail(d.LogPath, opts.Lines)
	if err != nil {
		return err
	}
	raw := strings.Join(tail, "\n")
	if raw != "" {
		raw += "\n"
	}
	if err := f.Printer().Print(output.View{JSON: map[string]any{"lines": tail}, Raw: raw}); err != nil || !opts.Follow {
		return err
	}
	return followFile(ctx, d.LogPath, redact.Writer{W: inert.Writer{W: f.IO.Out}}) // a server may print its key, or escapes
}

// followFile copies what is appended to path until ctx ends (Ctrl-C), in
// whole lines: out redacts each write on its own, and a key the server
// printed in two writes would otherwise reach it in two harmless halves.
func followFile(ctx context.Context, path string, out io.Writer) error {
	return followFileEvery(ctx, path, out, 200*time.Millisecond, nil)
}

// followFileEvery is followFile polling every poll; idle, when set, is
// called each time the file has been read to its end (tests wait on it
// instead of sleeping).
func followFileEvery(ctx context.Context, path string, out io.Writer, poll time.Duration, idle func()) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	if _, err := file.Seek(0, io.SeekEnd); err != nil {
		return err
	}
	var pending []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := file.Read(buf)
		if n > 0 {
			pending = append(pending, buf[:n]...)
			cut := bytes.LastIndexByte(pending, '\n') + 1
			if cut == 0 && len(pending) > maxPartialLine {
				// A line without end: print it, but for a tail long
				// enough to hold any key still being written.
				cut = len(pending) - keepOfPartialLine
			}
			if cut > 0 {
				if _, err := out.Write(pending[:cut]); err != nil {
					return err
				}
				pending = append(pending[:0], pending[cut:]...)
			}
			continue
		}
		if err != nil && err != io.EOF {
			return err
		}
		if idle != nil {
			idle()
		}
		select {
		case <-ctx.Done():
			_, err := out.Write(pending)
			return err
		case <-time.After(poll):
		}
	}
}

const (
	maxPartialLine    = 64 << 10
	keepOfPartialLine = 1 << 10
)
