package workspace

import (
	"fmt"
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/stack"
)

// ProposeName turns a project directory's name into a valid stack name:
// lower-cased, runs of other characters made one dash, starting with a
// letter, at most 31 characters. "dev" when nothing usable is left.
func ProposeName(dir string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(filepath.Base(dir)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	name := strings.Trim(b.String(), "-")
	if len(name) > 31 {
		name = strings.TrimRight(name[:31], "-")
	}
	if !config.StackName().MatchString(name) {
		return "dev"
	}
	return name
}

// ProposeFor is the stack init proposes for the project at dir: its
// binding when it has one; else the directory's name, unless a stack of that
// name was created for another project (it is not taken over: the proposal
// gets a suffix).
func (w *Workspace) ProposeFor(dir string) string {
	if b, err := w.Binding(); err == nil && b.Stack != "" && b.Dir == dir {
		return b.Stack
	}
	base := ProposeName(dir)
	for i := 1; i < 100; i++ {
		name := base
		if i > 1 {
			suffix := fmt.Sprintf("-%d", i)
			name = strings.TrimRight(base[:min(len(base), 31-len(suffix))], "-") + suffix
		}
		spec, err := stack.Load(w.Home, name)
		if err != nil || spec.Project == "" || spec.Project == dir {
			return name
		}
	}
	return base
}
