package output

import (
	"fmt"
	"io"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/inert"
)

// WriteErrorText is an error for people: the message, the hint, and the
// server's log tail when the error carries one (a crash at start says
// "read the log tail below", so it must be below, not only in JSON).
// Message, hint and log lines quote what servers and files said, so they
// are shown inert.
func WriteErrorText(w io.Writer, e *errs.Error) {
	fmt.Fprintf(w, "error: %s\n", inert.String(e.Message))
	if e.Hint != "" {
		fmt.Fprintf(w, "hint: %s\n", inert.String(e.Hint))
	}
	tail, _ := e.Details["log_tail"].([]string)
	if len(tail) == 0 {
		return
	}
	fmt.Fprintf(w, "last %d lines of the server log:\n", len(tail))
	for _, line := range tail {
		fmt.Fprintf(w, "  %s\n", inert.String(line))
	}
}
