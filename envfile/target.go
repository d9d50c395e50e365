package envfile

import (
	"os"
	"regexp"
	"strings"

	"loams.dev/cli/internal/errs"
)

// A written .env.loams names what it was written for in its header, and a
// merged block in its opening marker. An app whose file names stack
// nodeapp must never be re-pointed at stack dev by a command that merely
// resolved another default (project.md): writing for another target needs
// Force.

// headerTarget matches the target part of a header loams wrote, any version.
var headerTarget = regexp.MustCompile(`^# Written by loams \S+ for (stack "[^"]*"|profile "[^"]*" \([^)]*\)) at `)

// writtenFor returns the label (as Stack.Label renders it) of the target a
// header or block marker names, and whether it names one.
func writtenFor(line string) (string, bool) {
	line = strings.TrimRight(line, "\r\n")
	if m := headerTarget.FindStringSubmatch(line); m != nil {
		kind, rest, _ := strings.Cut(m[1], " ")
		name, tail, _ := strings.Cut(strings.TrimPrefix(rest, `"`), `"`)
		return kind + " " + name + tail, true
	}
	if t, ok := strings.CutPrefix(line, "# >>> loams ("); ok {
		if t, ok = strings.CutSuffix(t, ") >>>"); ok {
			return t, true
		}
	}
	return "", false
}

// blockLabel is the label a block marker carries: it names the profile
// without its endpoint.
func (s Stack) blockLabel() string {
	if s.IsRemote() {
		return "profile " + s.Name
	}
	return "stack " + s.Name
}

// FileTarget reads the target the .env.loams at path was written for; ""
// when the file is absent or has no loams header. The header is looked
// for in the whole opening block of comments and blank lines, after a
// byte-order mark: an editor's BOM or a comment someone put above the
// header must not hide it, or the file would be silently re-pointed.
func FileTarget(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	text := strings.TrimPrefix(string(b), "\ufeff")
	for line := range strings.SplitSeq(text, "\n") {
		l := strings.TrimSpace(line)
		if l != "" && !strings.HasPrefix(l, "#") {
			break // the header block ends at the first variable
		}
		if t, ok := writtenFor(l); ok {
			return t
		}
	}
	return ""
}

// checkWriteTarget refuses to replace a file written for another target.
func checkWriteTarget(real, show string, s Stack, force bool) error {
	if force {
		return nil
	}
	if had := FileTarget(real); had != "" && had != s.Label() {
		return mismatch(show, had, s.Label())
	}
	return nil
}

func mismatch(show, had, want string) error {
	return errs.New(errs.EnvTargetMismatch, "to re-point this app, run the command again with --force; to keep it, name its own target (`loams env export --stack NAME`)",
		"%s was written for %s, not %s", show, had, want).
		ForAgent(`to re-point this app, call env_export again with {"force": true}; to keep it, call env_export with the name of its own stack`).
		With("path", show).With("file_target", had).With("target", want)
}

// otherBlock is the label of a loams block in src for a target other than
// s, when src has no block of s's own; "" otherwise. A file that holds
// blocks for two targets was set up that way on purpose and is left to Merge.
func otherBlock(src []byte, s Stack) string {
	other := ""
	for _, l := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(l, "# >>> loams (") {
			continue
		}
		t, _ := writtenFor(l)
		if t == s.blockLabel() {
			return ""
		}
		if other == "" {
			other = t
		}
	}
	return other
}

// dropBlocks removes the blocks of label from src (Force re-points a
// merged file: the old target's block goes, the new one is appended).
func dropBlocks(src []byte, label string) []byte {
	var out []string
	skip := false
	for _, l := range strings.SplitAfter(string(src), "\n") {
		t := strings.TrimRight(l, "\r\n")
		switch {
		case !skip && strings.HasPrefix(t, "# >>> loams ("):
			if got, _ := writtenFor(t); got == label {
				skip = true
				continue
			}
		case skip && t == BlockEnd:
			skip = false
			continue
		}
		if !skip {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, ""))
}
