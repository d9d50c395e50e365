package commands

import (
	"context"

	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// planWorktrees offers a stack per git worktree (loams.toml [dev]
// worktrees = "clone") where that is cheap: in a git project whose stack
// copies quickly (the file system clones, or the data is small). --yes
// does not take it: it changes what every worktree of the project uses,
// so a person says so.
func planWorktrees(_ context.Context, r *initRun) (string, *initStepResult) {
	const how = `set [dev] worktrees = "clone" in loams.toml to give each git worktree its own stack`
	if r.projectDir == "" {
		return settled(stepSkipped("not in a project"))
	}
	switch mode := workspace.WorktreesSetting(r.projectDir); {
	case mode != "":
		return settled(stepDone("loams.toml says worktrees = \"" + mode + "\""))
	case !workspace.InGit(r.projectDir):
		return settled(stepSkipped("not a git repository: no worktrees"))
	case r.opts.yes:
		return settled(stepSkipped("not chosen by --yes: " + how))
	}
	h, err := r.f.Home()
	if err != nil {
		return settled(stepFailed(err))
	}
	cheap, why := stack.CheapToCopy(h, r.opts.stack)
	if !cheap {
		return settled(stepSkipped("not offered (" + why + "): " + how))
	}
	return "Give each git worktree of this project its own stack, a copy of " + r.opts.stack + " (" + why + ")?", nil
}

func runWorktrees(_ context.Context, r *initRun) initStepResult {
	path, err := workspace.SetWorktrees(r.projectDir, workspace.WorktreesClone)
	if err != nil {
		return stepFailed(err)
	}
	r.changed("each git worktree gets its own stack (worktrees = \"clone\" in " + path + ")")
	return stepDone(path + `: worktrees = "clone"`)
}
