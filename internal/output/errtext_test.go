package output

import (
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

// A crash at start in table mode shows the log tail its hint points to.
func TestErrorTextShowsLogTail(t *testing.T) {
	var b strings.Builder
	e := errs.New(errs.ServerError, "read the log tail below", "the server exited").With("log_tail", []string{"loams: metastore is corrupt", "bye"})
	WriteErrorText(&b, e)
	want := "error: the server exited\nhint: read the log tail below\nlast 2 lines of the server log:\n  loams: metastore is corrupt\n  bye\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	WriteErrorText(&b, errs.New(errs.Usage, "", "bad"))
	if b.String() != "error: bad\n" {
		t.Errorf("no hint, no tail: %q", b.String())
	}
}
