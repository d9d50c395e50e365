package commands

import (
	"context"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// makeWorktreeStack is the CLI's half of the per-worktree rule
// (workspace/worktree.go): the first command in a linked worktree that
// needs its stack asks at a terminal, then clones the main stack; a
// script is told the command that does it (or `loams init --yes`).
func (f *Factory) makeWorktreeStack(name, from, project string) error {
	create := "loams stack create " + name + " --from " + from
	if !f.assumeYes {
		if !f.CanPrompt() {
			return errs.New(errs.ConfirmationRequired, "run `"+create+"` (or `loams init --yes` here)",
				"this git worktree gets its own stack %q, a copy of %s; creating it needs confirmation", name, from).
				With("name", name).With("from", from)
		}
		ok, err := f.askYes("This git worktree gets its own stack "+name+", a copy of "+from+". Create it?", true)
		if err != nil || !ok {
			return errs.New(errs.ConfirmationRequired, "run `"+create+"` when you want it", "stack %q not created", name).With("name", name)
		}
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	err = f.withProgress("copying "+from+" into "+name+"…", func() error {
		_, _, err := sv.Clone(context.Background(), stack.CloneOptions{Name: name, From: from, Project: project})
		return err
	})
	if err == nil {
		f.say("created stack %s for this worktree (a copy of %s)", name, from)
	}
	return err
}
