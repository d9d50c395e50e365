package commands

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/project"
	"loams.dev/cli/stack"
)

// profileName is the profile init sets up: the one the user chose
// (--profile, LOAMS_PROFILE) or default, never one because a project's
// loams.toml names it (workspace.ChosenProfile).
func (r *initRun) profileName() string {
	if ws, err := r.f.Workspace(); err == nil {
		return ws.ChosenProfile()
	}
	return config.DefaultProfile
}

// planProfile: the profile needs creating, or a default_stack; an
// existing default is left alone.
func planProfile(_ context.Context, r *initRun) (string, *initStepResult) {
	name := r.profileName()
	r.res.Profile = name
	cfg, err := r.f.Config()
	if err != nil {
		return settled(stepFailed(err))
	}
	p, existed := cfg.Profile(name)
	switch {
	case r.projectDir != "" && existed:
		// Inside a project, loams.toml binds it; the profile's default is
		// for directories with no binding, and one app's stack must not
		// become the others' (project.md "A project that is not bound").
		return settled(stepDone("profile " + name + " (default_stack left as it is: loams.toml binds this project)"))
	case r.projectDir != "":
		return "Create the profile " + name + "?", nil
	case existed && p.DefaultStack != "":
		return settled(stepDone("profile " + name + " (default_stack = " + p.DefaultStack + ") already set up"))
	case existed:
		return "Set default_stack = " + r.opts.stack + " in the profile " + name + "?", nil
	}
	return "Create the profile " + name + " (default_stack = " + r.opts.stack + ")?", nil
}

func runProfile(_ context.Context, r *initRun) initStepResult {
	h, err := r.f.Home()
	if err == nil {
		err = h.Ensure()
	}
	if err != nil {
		return stepFailed(err)
	}
	cfg, err := r.f.Config()
	if err != nil {
		return stepFailed(err)
	}
	name := r.profileName()
	_, existed := cfg.Profile(name)
	if err := cfg.Set(name, "default_stack", r.opts.stack); err != nil {
		return stepFailed(err)
	}
	if r.projectDir != "" { // the profile is made, its default left alone
		if err := cfg.Unset(name, "default_stack"); err != nil {
			return stepFailed(err)
		}
	}
	if err := cfg.Save(); err != nil {
		return stepFailed(err)
	}
	if !existed {
		r.changed("created profile " + name)
	}
	if r.projectDir != "" {
		return stepDone("profile " + name + " (default_stack left unset: loams.toml binds this project)")
	}
	r.changed("set default_stack = " + r.opts.stack)
	return stepDone("profile " + name + ", default_stack = " + r.opts.stack)
}

// planStack: create the stack, start it, or nothing (running).
func planStack(ctx context.Context, r *initRun) (string, *initStepResult) {
	sv, err := r.f.Supervisor()
	if err != nil {
		return settled(stepFailed(err))
	}
	name := r.opts.stack
	d, err := sv.Describe(ctx, name)
	if errs.Is(err, errs.StackNotFound) {
		return "Create and start the stack " + name + "?", nil
	}
	if err != nil {
		return settled(stepFailed(err))
	}
	r.res.Stack.Description = d
	if len(r.opts.engines) > 0 {
		r.f.warn("stack %s already exists and keeps its engines; --engines applies to a new stack", name)
	}
	if d.State == stack.Running {
		return settled(stepDone(name + " already running"))
	}
	return "Start the stack " + name + " (" + d.State + ")?", nil
}

func runStack(ctx context.Context, r *initRun) initStepResult {
	sv, err := r.f.Supervisor()
	if err != nil {
		return stepFailed(err)
	}
	name, opts := r.opts.stack, r.opts
	var d *stack.Description
	if was := r.res.Stack.State; was != "absent" {
		err = r.f.withProgress("starting "+name+"…", func() (err error) { d, err = sv.Start(ctx, name, opts.wait); return err })
		if err != nil && ctx.Err() != nil && (was == stack.Stopped || was == stack.Crashed) {
			// Interrupted: stop the server init started (not one that
			// another start had under way).
			_, _ = sv.Stop(context.WithoutCancel(ctx), name, 2*time.Second)
		}
		if err != nil {
			return stepFailed(err)
		}
		r.res.Stack.Description, r.res.Stack.Started = d, true
		r.changed("started stack " + name)
		return stepDone("started " + name)
	}
	err = r.f.createWithServer(ctx, opts.allowDownload, "loams init --yes", func() error {
		return r.f.withProgress("starting "+name+"…", func() (err error) {
			d, err = sv.Create(ctx, stack.CreateOptions{Name: name, Engines: opts.engines, PortBase: opts.portBase,
				ServerBinary: opts.serverBinary, Start: true, Wait: opts.wait, Project: r.projectDir})
			return err
		})
	})
	if noServer(err) {
		res := stepFailed(err)
		// The summary line itself says how to get a server.
		res.Message = "no Loams server found: set LOAMS_SERVER_BINARY=PATH or pass --server-binary PATH, or run `loams server install --from FILE` (the hint below has more)"
		return res
	}
	if err != nil {
		// A stack whose first start failed still exists: describe it.
		if got, derr := sv.Describe(context.WithoutCancel(ctx), name); derr == nil {
			r.res.Stack.Description = got
		}
		return stepFailed(err)
	}
	r.res.Stack.Description, r.res.Stack.Created, r.res.Stack.Started = d, true, true
	r.changed("created and started stack " + name)
	return stepDone("created and started " + name)
}

// planEnv: .env.loams needs the stack (its ports and key) and a project.
func planEnv(ctx context.Context, r *initRun) (string, *initStepResult) {
	switch {
	case r.opts.noEnv:
		return settled(stepSkipped("--no-env"))
	case r.res.Stack.State == "absent":
		return settled(stepSkipped("no stack " + r.opts.stack + " to point it at yet"))
	}
	dir := r.projectDir
	if dir == "" {
		cwd, _ := os.Getwd()
		r.f.warn("%s is not in a project (no .git, package.json, pyproject.toml, requirements.txt, go.mod, Cargo.toml, .cursor/…): "+
			".env.loams not written; run `loams env export --write .env.loams --project-dir DIR` for your project", cwd)
		return settled(stepSkipped("not in a project: run `loams env export --write .env.loams --project-dir DIR` for yours"))
	}
	path := filepath.Join(dir, ".env.loams")
	st, err := stackEnv(ctx, r.f, r.opts.stack)
	if err != nil {
		return settled(stepFailed(err))
	}
	if envfile.Current(path, st) {
		// Export still runs: it adds .env.loams to .gitignore if missing.
		return settled(runEnv(ctx, r))
	}
	return "Write " + path + "?", nil
}

func runEnv(ctx context.Context, r *initRun) initStepResult {
	path := filepath.Join(r.projectDir, ".env.loams")
	st, err := stackEnv(ctx, r.f, r.opts.stack)
	if err != nil {
		return stepFailed(err)
	}
	out, err := envfile.Export(ctx, st, envfile.Target{Write: path, Gitignore: true, Version: buildinfo.Get().Version, Now: r.f.Now()})
	if err != nil {
		return stepFailed(err)
	}
	r.res.EnvFile = &path
	msg := path + " is current"
	if !out.Unchanged {
		r.changed("wrote " + path)
		msg = "wrote " + path
	}
	if out.GitignoreUpdated != "" {
		r.changed("added .env.loams to " + out.GitignoreUpdated)
	}
	return stepDone(msg)
}

// initProjectDir is --project-dir, else the project env export writes
// into (f.envDir: in a monorepo app, the directory of its loams.toml, so
// init neither binds the repository's root nor writes .env.loams there).
// "" when there is none: init then writes no .env.loams rather than guess
// ($HOME, a bare folder).
func initProjectDir(f *Factory, flag string) (string, error) {
	dir, err := f.envDir(flag)
	if errors.Is(err, project.ErrNotFound) {
		return "", nil
	}
	return dir, err
}
