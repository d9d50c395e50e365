package workspace

import (
	"fmt"
	"path/filepath"

	"loams.dev/cli/internal/errs"
)

// An unbound project (project.md) is one with no loams.toml naming its
// stack. There the profile's default_stack and the only stack still answer
// what only reads, but they were chosen for another app: what writes into
// the project or acts for it needs the user to choose.

// markUnbound notes on an implicit target that the project it serves has
// no binding, so the target (and its stderr line) says so.
func (w *Workspace) markUnbound(t *Target, b Binding) {
	if b.Stack != "" || (t.Source != FromDefaultStack && t.Source != FromOnlyStack) {
		return
	}
	if root := w.ProjectRoot(); root != "" {
		t.Project, t.Unbound = root, true
	}
}

// ActOn is Stack for what writes into the project or acts for it (stack
// start/stop without a name, env export --write/--merge, MCP env_export):
// in an unbound project a stack only default_stack or the only stack chose
// is project_unbound, naming the project and the stack it would have been.
func (w *Workspace) ActOn(name string) (Target, error) {
	t, err := w.Stack(name)
	if err != nil {
		return t, err
	}
	return t, w.RefuseUnbound(t)
}

// RefuseUnbound is project_unbound for a target that would act for an
// unbound project; nil for any other.
func (w *Workspace) RefuseUnbound(t Target) error {
	if !t.Unbound {
		return nil
	}
	own := w.ProposeFor(t.Project)
	why := "the profile's default_stack"
	if t.Source == FromOnlyStack {
		why = "it is the only stack"
	}
	return errs.New(errs.ProjectUnbound,
		fmt.Sprintf("bind it: `loams init` or `loams stack create %s` (writes loams.toml); or name the stack: `--stack %s`", own, t.Stack),
		"%s has no %s naming its stack; loams will not write into it or act for it with stack %q (%s), which may be another app's",
		t.Project, ManifestName, t.Stack, why).
		ForAgent(fmt.Sprintf(`call stack_create with {"name": %q} to give this project its own stack, or call the tool again with {"name": %q} to use that one`, own, t.Stack)).
		With("project", t.Project).With("stack", t.Stack).With("source", string(t.Source)).
		With("manifest", filepath.Join(t.Project, ManifestName))
}
