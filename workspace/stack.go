package workspace

import (
	"os"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// Stack applies the stack rule of project.md, first that applies: name (a
// positional argument, --name, a tool's name) > --stack > LOAMS_STACK > the
// project's loams.toml > the profile's default_stack > the only stack >
// stack_ambiguous. A stack named by loams.toml or default_stack must
// exist; an explicit name is checked by whatever acts on it.
func (w *Workspace) Stack(name string) (Target, error) {
	b, err := w.Binding()
	if err != nil {
		return Target{}, err
	}
	w.warnUnknown(b)
	t := Target{Project: b.Dir}
	switch {
	case name != "":
		t.Stack, t.Source = name, FromArgument
		return t, nil
	case w.StackFlag != "":
		t.Stack, t.Source = w.StackFlag, FromFlag
		return t, nil
	case w.Getenv("LOAMS_STACK") != "":
		t.Stack, t.Source = w.Getenv("LOAMS_STACK"), FromEnv
		return t, nil
	case b.Stack != "":
		if wt, ok, err := w.worktreeTarget(b, false); ok {
			return wt, err
		}
		t.Stack, t.Source = b.Stack, FromManifest
		return t, w.mustExist(t)
	}
	p, err := w.Profile()
	if err != nil {
		return Target{}, err
	}
	if p.DefaultStack != "" {
		t.Stack, t.Source = p.DefaultStack, FromDefaultStack
		w.markUnbound(&t, b)
		return t, w.mustExist(t)
	}
	names, err := stack.List(w.Home)
	if err != nil {
		return Target{}, err
	}
	switch len(names) {
	case 0:
		proposed := "dev"
		if b.Dir != "" {
			proposed = ProposeName(b.Dir)
		}
		return Target{}, errs.New(errs.StackNotFound, "create one with `loams stack create "+proposed+"` (or `loams init`)",
			"there are no stacks yet").ForAgent(errs.ToolCall("stack_create", map[string]any{"name": proposed}))
	case 1:
		t.Stack, t.Source = names[0], FromOnlyStack
		w.markUnbound(&t, b)
		return t, nil
	}
	return Target{}, errs.New(errs.StackAmbiguous,
		"name one: `loams stack describe NAME`, `--stack NAME` or LOAMS_STACK; or bind this project with `loams init --stack NAME` (writes loams.toml)",
		"%d stacks exist (%s) and nothing says which one to use", len(names), quoteList(names)).
		ForAgent(`call the tool again with {"name": "<one of the stacks>"}, or call stack_create in a project with no loams.toml to bind it`).
		With("stacks", names)
}

// mustExist turns a binding to a stack that is not there into
// stack_not_found with the remedy that fits the face.
func (w *Workspace) mustExist(t Target) error {
	if _, err := os.Stat(w.Home.Stack(t.Stack) + "/stack.toml"); err == nil {
		return nil
	}
	where := "the profile's default_stack"
	if t.Source == FromManifest {
		where = w.binding.Path
	}
	return errs.New(errs.StackNotFound, "create it with `loams stack create "+t.Stack+"`",
		"%s names stack %q, which does not exist", where, t.Stack).
		ForAgent(errs.ToolCall("stack_create", map[string]any{"name": t.Stack})).
		With("name", t.Stack).With("source", string(t.Source))
}
