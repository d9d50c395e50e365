package iostreams

import (
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
)

// A notice printed while a spinner draws starts on a cleared line of its
// own, never after "⠋ starting dev…"; the spinner goes on below it.
func TestNoticeDuringSpinnerGetsItsOwnLine(t *testing.T) {
	var errOut testbin.Buffer
	s := &IOStreams{ErrOut: &errOut, StderrTTY: true}
	stop := s.Progress("starting dev…")
	waitUntil(t, func() bool { return strings.Contains(errOut.String(), "starting dev…") })
	s.Notice("note: no usable OS keyring")
	waitUntil(t, func() bool {
		_, after, _ := strings.Cut(errOut.String(), "note:")
		return strings.Contains(after, "starting dev…")
	})
	stop()
	out := errOut.String()
	i := strings.Index(out, "note:")
	if i < 0 {
		t.Fatalf("no notice in %q", out)
	}
	if !strings.HasSuffix(out[:i], "\r\033[K") {
		t.Fatalf("notice does not start on a cleared line: %q", out)
	}
	if !strings.HasPrefix(out[i:], "note: no usable OS keyring\n") {
		t.Fatalf("notice is not a line of its own: %q", out)
	}
	if !strings.Contains(out[i:], "⠙ starting dev…") && !strings.Contains(out[i:], "starting dev…") {
		t.Fatalf("the spinner did not go on after the notice: %q", out)
	}
	if !strings.HasSuffix(out, "\r\033[K") {
		t.Fatalf("stop does not clear the spinner's line: %q", out)
	}
}

// No terminal, or TERM=dumb: no spinner at all.
func TestNoSpinnerWithoutACapableTerminal(t *testing.T) {
	for _, s := range []*IOStreams{{StderrTTY: false}, {StderrTTY: true, Dumb: true}} {
		var errOut testbin.Buffer
		s.ErrOut = &errOut
		stop := s.Progress("starting dev…")
		// Absence needs time: longer than a spinner's first frame takes.
		time.Sleep(120 * time.Millisecond)
		stop()
		if errOut.String() != "" {
			t.Errorf("tty=%v dumb=%v: spinner drew %q", s.StderrTTY, s.Dumb, errOut.String())
		}
	}
}

// Say prints on a piped stderr too, and on a line of its own while a
// spinner draws.
func TestSay(t *testing.T) {
	var piped testbin.Buffer
	(&IOStreams{ErrOut: &piped}).Say("wrote %s", ".env.loams")
	if piped.String() != "wrote .env.loams\n" {
		t.Fatalf("piped: %q", piped.String())
	}
	var errOut testbin.Buffer
	s := &IOStreams{ErrOut: &errOut, StderrTTY: true}
	stop := s.Progress("stopping dev…")
	waitUntil(t, func() bool { return strings.Contains(errOut.String(), "stopping dev…") })
	s.Say("note: waiting up to 30s")
	stop()
	out := errOut.String()
	i := strings.Index(out, "note:")
	if i < 0 || !strings.HasSuffix(out[:i], "\r\033[K") {
		t.Fatalf("Say did not clear the spinner's line: %q", out)
	}
}

// waitUntil polls cond until it holds: the spinner draws on its own
// goroutine, and a loaded machine may take a while to schedule it.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the spinner never drew")
		}
	}
}

// A notice may quote a server's version or log tail: its controls are
// shown, not sent to the terminal.
func TestNoticeIsInert(t *testing.T) {
	var errOut testbin.Buffer
	(&IOStreams{ErrOut: &errOut, StderrTTY: true}).Notice("last lines:\n%s", "boom\x1b]52;c;ZXZpbA==\x07\u009b2J")
	if got := errOut.String(); got != "last lines:\nboom\\x1b]52;c;ZXZpbA==\\x07\\u009b2J\n" {
		t.Fatalf("got %q", got)
	}
}
