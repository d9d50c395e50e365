package commands

import (
	"context"
	"path/filepath"

	"loams.dev/cli/envfile"
	"loams.dev/cli/workspace"
)

// chooseInitStack is the stack init sets up when --stack does not say:
// the project's binding when it has one (kept), else the project
// directory's name (a stack of that name made for another project is not
// taken over), else the profile's default_stack, else dev.
func chooseInitStack(f *Factory, projectDir string) (string, error) {
	ws, err := f.Workspace()
	if err != nil {
		return "", err
	}
	if b, err := ws.Binding(); err != nil {
		return "", err
	} else if b.Stack != "" {
		if t, ok, err := ws.WorktreeStack(); ok { // [dev] worktrees = "clone"
			return t.Stack, err
		}
		// Kept, unless it was made for another project and nobody said so.
		return b.Stack, ws.VouchStack(b.Stack)
	}
	if projectDir != "" {
		return ws.ProposeFor(projectDir), nil
	}
	if p, err := ws.Profile(); err == nil && p.DefaultStack != "" {
		return p.DefaultStack, nil
	}
	return "dev", nil
}

// planProject: loams.toml binds the project to init's stack (project.md).
// It needs no server, so it runs whether or not one is found.
func planProject(_ context.Context, r *initRun) (string, *initStepResult) {
	if r.projectDir == "" {
		return settled(stepSkipped("not in a project: no loams.toml to write"))
	}
	ws, err := r.f.Workspace()
	if err != nil {
		return settled(stepFailed(err))
	}
	path := filepath.Join(r.projectDir, workspace.ManifestName)
	b, err := ws.Binding()
	if err != nil {
		return settled(stepFailed(err))
	}
	if b.Stack == r.opts.stack && b.Path == path {
		return settled(stepDone(path + " binds this project to stack " + r.opts.stack))
	}
	if t, ok, _ := ws.WorktreeStack(); ok && t.Stack == r.opts.stack { // loams.toml stays as committed
		return settled(stepDone(path + " binds this project to stack " + b.Stack + "; this git worktree uses its own, " + t.Stack))
	}
	return "Bind this project to stack " + r.opts.stack + " in " + path + "?", nil
}

func runProject(_ context.Context, r *initRun) initStepResult {
	path, changed, err := workspace.Bind(r.projectDir, r.opts.stack)
	if err != nil {
		return stepFailed(err)
	}
	if ws, err := r.f.Workspace(); err == nil {
		ws.Rebind()
	}
	if changed {
		r.changed("bound this project to stack " + r.opts.stack + " in " + path)
	}
	return stepDone(path + " binds this project to stack " + r.opts.stack)
}

// stackEnv is what .env.loams holds for the stack (workspace.StackEnv).
func stackEnv(ctx context.Context, f *Factory, name string) (envfile.Stack, error) {
	ws, err := f.Workspace()
	if err != nil {
		return envfile.Stack{}, err
	}
	return ws.StackEnv(ctx, name)
}
