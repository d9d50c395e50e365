package envfile

import (
	"strings"

	"loams.dev/cli/internal/errs"
)

// BlockEnd closes every loams block.
const BlockEnd = "# <<< loams <<<"

// BlockBegin opens the block of one stack.
func BlockBegin(stack string) string { return "# >>> loams (stack " + stack + ") >>>" }

// Merge puts the stack's block into src: replacing the block of the same
// stack when there is one, appending it otherwise. Every byte outside the
// block is kept: line endings (the block uses the file's own, CRLF or LF),
// a missing final newline, comments, `export` lines. Two blocks for the
// stack, or a block that is not closed, are file_conflict: the caller must
// not write.
func Merge(src []byte, s Stack, path string) ([]byte, error) {
	text := string(src)
	eol := "\n"
	if strings.Contains(text, "\r\n") {
		eol = "\r\n"
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	begin := s.blockBegin()
	start, end := -1, -1 // line indexes of this stack's markers
	open := -1           // line index of the block being read
	for i, l := range lines {
		switch t := strings.TrimRight(l, "\r\n"); {
		case strings.HasPrefix(t, "# >>> loams"):
			if open >= 0 {
				return nil, conflict(path, "a loams block starting on line %d is not closed before line %d", open+1, i+1)
			}
			open = i
			if t == begin {
				if start >= 0 {
					return nil, conflict(path, "two blocks for stack %q (lines %d and %d)", s.Name, start+1, i+1)
				}
				start = i
			}
		case t == BlockEnd:
			if open < 0 {
				return nil, conflict(path, "line %d closes a loams block that was never opened", i+1)
			}
			if open == start {
				end = i
			}
			open = -1
		}
	}
	if open >= 0 {
		return nil, conflict(path, "the loams block starting on line %d is never closed (no %q line)", open+1, BlockEnd)
	}
	if start < 0 {
		var b strings.Builder
		b.WriteString(text)
		if text != "" && !strings.HasSuffix(text, "\n") {
			b.WriteString(eol)
		}
		b.WriteString(s.block(eol, eol))
		return []byte(b.String()), nil
	}
	last := lines[end]
	tail := last[len(strings.TrimRight(last, "\r\n")):] // the end line's own terminator, maybe none
	var b strings.Builder
	b.WriteString(strings.Join(lines[:start], ""))
	b.WriteString(s.block(eol, tail))
	b.WriteString(strings.Join(lines[end+1:], ""))
	return []byte(b.String()), nil
}

// block renders the marked block; last ends its closing line.
func (s Stack) block(eol, last string) string {
	return s.blockBegin() + eol + s.lines(eol) + BlockEnd + last
}

func conflict(path, format string, args ...any) error {
	return errs.New(errs.FileConflict, "fix the loams markers in "+path+" by hand (keep one `"+
		"# >>> loams (stack NAME) >>>` … `"+BlockEnd+"` pair per stack), then run the command again",
		"%s: "+format, append([]any{path}, args...)...).With("path", path).
		ForAgent("ask the user to fix the loams markers in " + path + " by hand (one `# >>> loams (stack NAME) >>>` … `" + BlockEnd + "` pair per stack), then call env_export again")
}
