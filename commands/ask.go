package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/inert"
)

// askLine prints question on stderr and reads one line from stdin. It
// reads byte by byte so that several questions in a row (loams init) do
// not lose answers to a buffer. The read runs beside a wait for Ctrl-C: a
// blocked read of a terminal cannot be interrupted, and the person who
// pressed Ctrl-C must not have to press Enter as well. The abandoned read
// ends with the process.
func (f *Factory) askLine(question string) (string, error) {
	if f.signalsReady != nil {
		// A Ctrl-C at the question must reach our handler, not kill the
		// process before Main has installed it.
		<-f.signalsReady
	}
	fmt.Fprint(f.IO.ErrOut, inert.String(question)) // it may show a URL a manifest gave
	type answer struct {
		line string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		line, err := readLine(f.IO.In)
		got <- answer{line, err}
	}()
	select {
	case a := <-got:
		if errors.Is(a.err, io.EOF) {
			// Stdin closed before an answer (a script fed too few): not
			// a bug in loams, and not a yes.
			return "", errs.New(errs.ConfirmationRequired, "answer at a terminal, or pass --yes to accept every step",
				"no answer to %q: the input ended", strings.TrimSpace(question)).Wrap(a.err)
		}
		return a.line, a.err
	case <-f.interrupt:
		fmt.Fprintln(f.IO.ErrOut) // the question's line stays unfinished otherwise
		return "", context.Canceled
	}
}

func readLine(in io.Reader) (string, error) {
	var b strings.Builder
	buf := make([]byte, 1)
	for {
		n, err := in.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				break
			}
			b.WriteByte(buf[0])
		}
		if err == io.EOF {
			if b.Len() == 0 {
				return "", err
			}
			break
		}
		if err != nil {
			return "", err
		}
	}
	return strings.TrimSpace(b.String()), nil
}

// askYes asks a yes/no question; an empty answer takes def.
func (f *Factory) askYes(question string, def bool) (bool, error) {
	suffix := " [y/N] "
	if def {
		suffix = " [Y/n] "
	}
	ans, err := f.askLine(question + suffix)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(ans) {
	case "":
		return def, nil
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// askChoice offers numbered options and returns the index chosen.
func (f *Factory) askChoice(question string, options []string) (int, error) {
	for i, o := range options {
		fmt.Fprintf(f.IO.ErrOut, "  %d) %s\n", i+1, inert.String(o))
	}
	for {
		ans, err := f.askLine(fmt.Sprintf("%s [1-%d] ", question, len(options)))
		if err != nil {
			return 0, err
		}
		var n int
		if _, err := fmt.Sscan(ans, &n); err == nil && n >= 1 && n <= len(options) {
			return n - 1, nil
		}
	}
}
