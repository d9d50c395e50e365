package commands

import (
	"fmt"
	"sync"

	"loams.dev/cli/internal/inert"
	"loams.dev/cli/internal/output"
)

// warningLog holds the warnings of a json-mode run until the document
// (or the error object) that carries them is written: with -o json,
// stderr is one JSON document or nothing, never a loose line.
type warningLog struct {
	mu    sync.Mutex
	lines []string
}

// warn tells the user something went less well than asked (an unsigned
// install, an agent not set up). On stderr in table and text mode, even
// with --quiet and when piped, since a script must see it too; in json
// mode it becomes `warnings` in the result or `details.warnings` in the
// error.
func (f *Factory) warn(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if !f.JSON() {
		f.IO.Say("warning: %s", inert.String(line)) // it may quote a file loams did not write
		return
	}
	f.warnings.mu.Lock()
	defer f.warnings.mu.Unlock()
	f.warnings.lines = append(f.warnings.lines, line)
}

// takeWarnings returns the warnings not yet written, and forgets them.
func (f *Factory) takeWarnings() []string {
	f.warnings.mu.Lock()
	defer f.warnings.mu.Unlock()
	w := f.warnings.lines
	f.warnings.lines = nil
	return w
}

// flushWarnings writes warnings no document took (a command that printed
// its result before the warning) as the one JSON document on stderr.
func (f *Factory) flushWarnings() {
	if w := f.takeWarnings(); len(w) > 0 {
		_ = output.WriteJSON(f.IO.ErrOut, map[string]any{"warnings": w})
	}
}
