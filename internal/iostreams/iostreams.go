// Package iostreams is the one place output goes through: it knows whether
// each stream is a terminal, can be replaced by buffers in tests, and draws
// progress on stderr only when stderr is a terminal.
package iostreams

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"loams.dev/cli/internal/inert"
)

// IOStreams carries the process's standard streams and what they are.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	StdinTTY  bool
	StdoutTTY bool
	StderrTTY bool
	// Dumb is TERM=dumb: a terminal that cannot move the cursor, so no
	// spinner (its \r and erase escapes would print as garbage).
	Dumb bool

	// mu orders writes to ErrOut between a spinner and notices; spinning
	// says a spinner owns the current line, so a notice clears it first
	// instead of landing after "⠋ starting dev…".
	mu       sync.Mutex
	spinning bool
}

// System returns the real streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		StdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		StdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Dumb:      os.Getenv("TERM") == "dumb",
	}
}

// Test returns streams backed by buffers, all reporting "not a terminal".
func Test() (ios *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// Notice prints a line on stderr when stderr is a terminal; piped stderr of
// scripts stays quiet.
func (s *IOStreams) Notice(format string, args ...any) {
	if !s.StderrTTY {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spinning {
		// The spinner redraws itself on the next line at its next tick.
		fmt.Fprint(s.ErrOut, "\r\033[K")
	}
	// A notice may quote a server (its version, its log tail): inert.
	fmt.Fprintln(s.ErrOut, inert.String(fmt.Sprintf(format, args...)))
}

// Say prints a line on stderr whether or not it is a terminal (what a
// command did, warnings), on a line of its own even while a spinner draws.
func (s *IOStreams) Say(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spinning {
		fmt.Fprint(s.ErrOut, "\r\033[K")
	}
	fmt.Fprintf(s.ErrOut, format+"\n", args...)
}

// Progress draws a spinner with msg on stderr until the returned stop
// function is called. On a non-terminal stderr it draws nothing.
func (s *IOStreams) Progress(msg string) (stop func()) {
	if !s.StderrTTY || s.Dumb {
		return func() {}
	}
	frames := []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	s.mu.Lock()
	s.spinning = true
	s.mu.Unlock()
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			s.mu.Lock()
			fmt.Fprintf(s.ErrOut, "\r%s %s", frames[i%len(frames)], msg)
			s.mu.Unlock()
			select {
			case <-done:
				s.mu.Lock()
				fmt.Fprint(s.ErrOut, "\r\033[K")
				s.spinning = false
				s.mu.Unlock()
				return
			case <-t.C:
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}
