package workspace

import (
	"context"
	"fmt"
	"path/filepath"

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// A cloned repository's loams.toml may choose among the user's things, but
// not hand them to the repository (spec project.md, "A repository is
// input"): from loams.toml alone, a remote profile's key is never written
// into the project, and a stack made for another project is never
// exported, started or bound. The user says it explicitly (a flag, the
// environment, a tool argument) or, at a terminal, answers yes.

// ChosenProfile is the profile the user chose (--profile, LOAMS_PROFILE),
// else default: never the one a loams.toml names. init and a new stack's
// adoption write settings only there.
func (w *Workspace) ChosenProfile() string {
	if w.ProfileFlag != "" {
		return w.ProfileFlag
	}
	return config.DefaultProfile
}

// ToStart is ActOn for what starts a stack for this project (`loams stack
// start`, restart, MCP stack_start; both faces come here): a stack
// loams.toml alone names that was made for another project needs the
// user's word, and a git worktree's own stack is made on first need
// (worktree.go).
func (w *Workspace) ToStart(name string) (Target, error) {
	t, err := w.ActOn(name)
	if err == nil {
		err = w.vouch(t)
	}
	if err == nil {
		err = w.EnsureStack(t.Stack)
	}
	return t, err
}

// ExportIntoProject is ExportSource for a write into the project (env export
// --write/--merge, MCP env_export), where the project's own scripts and
// hooks can read the key. Both checks come before any key is read: what
// loams.toml alone chose needs the user's word, and in an unbound project
// default_stack and the only stack do not decide what is written into it.
// profile is a profile named in this very request (env_export's
// {"profile": …}): that word. Printing (env export to stdout) goes to the
// person who asked and needs neither.
func (w *Workspace) ExportIntoProject(ctx context.Context, name, profile string) (envfile.Stack, Target, error) {
	if profile != "" {
		if !config.ProfileName().MatchString(profile) {
			return envfile.Stack{}, Target{}, errs.New(errs.Usage, "a profile name is a letter or digit, then letters, digits, - or _",
				"%q is not a profile name", profile).With("profile", profile)
		}
		return w.forProfile(profile).ExportIntoProject(ctx, name, "")
	}
	if name == "" && w.StackFlag == "" { // the target rule decides: maybe on loams.toml's word
		_, t, err := w.Endpoint()
		switch {
		case err == nil:
			if err = w.vouch(t); err == nil {
				err = w.RefuseUnbound(t)
			}
		case t.Source == FromWorktree:
			err = nil // made on first need by ExportSource, whose copy of the main stack is vouched for (vouchMain)
		}
		if err != nil {
			return envfile.Stack{}, t, err
		}
	}
	return w.ExportSource(ctx, name)
}

// forProfile is this workspace for one request naming profile: every
// exported field but ProfileFlag as it is (a field added to Workspace
// belongs here too), and a binding read afresh.
func (w *Workspace) forProfile(profile string) *Workspace {
	return &Workspace{Home: w.Home, Getenv: w.Getenv, Dir: w.Dir, StackFlag: w.StackFlag, EndpointFlag: w.EndpointFlag,
		ProfileFlag: profile, Secrets: w.Secrets, ProfileKeys: w.ProfileKeys, Notice: w.Notice, Agent: w.Agent,
		Warn: w.Warn, Confirm: w.Confirm, MakeWorktreeStack: w.MakeWorktreeStack,
		Supervisor: w.Supervisor, Managed: w.Managed, explicitDir: w.explicitDir}
}

// vouch lets a target through when something other than loams.toml chose
// what it hands over, or the person at the terminal agrees.
func (w *Workspace) vouch(t Target) error {
	b, err := w.Binding()
	if err != nil || b.Path == "" {
		return err
	}
	var refusal *errs.Error
	var question string
	switch {
	case t.Endpoint != "" && w.ProfileFlag == "" && b.Profile != "" && t.Profile == b.Profile:
		refusal = errs.New(errs.ConfirmationRequired,
			fmt.Sprintf("if this project may have that key, say so: `loams --profile %s …` (or LOAMS_PROFILE=%s)", b.Profile, b.Profile),
			"%s names profile %q, whose key would be written into this project; a repository's loams.toml alone does not choose your credentials",
			b.Path, b.Profile).
			ForAgent(fmt.Sprintf(`ask the user whether this project may have the key of profile %q; if so, call env_export with {"profile": %q}`, b.Profile, b.Profile)).
			With("path", b.Path).With("profile", b.Profile)
		question = fmt.Sprintf("%s names profile %s: write its key into this project?", b.Path, b.Profile)
	case t.Source == FromManifest && t.Stack != "":
		owner := stackProject(w, t.Stack)
		if owner == "" || sameDir(owner, b.Dir) {
			return nil
		}
		refusal = errs.New(errs.ConfirmationRequired,
			fmt.Sprintf("name it yourself if you mean it (`loams stack start %s`, `loams env export --stack %s`), or bind this project to a stack of its own: `loams init --stack NAME`", t.Stack, t.Stack),
			"%s names stack %q, which was made for another project (%s); a repository's loams.toml alone does not hand it to this one",
			b.Path, t.Stack, owner).
			ForAgent(fmt.Sprintf(`ask the user whether this project may use stack %q; if so, call the tool again with {"name": %q}`, t.Stack, t.Stack)).
			With("path", b.Path).With("stack", t.Stack).With("stack_project", owner)
		question = fmt.Sprintf("%s names stack %s, made for %s: use it here?", b.Path, t.Stack, owner)
	default:
		return nil
	}
	if w.Confirm != nil {
		ok, err := w.Confirm(question)
		if err != nil || ok {
			return err
		}
	}
	return refusal
}

// VouchStack is vouch for a stack loams.toml names that a verb is about to
// bind or set up (init keeping an existing binding).
func (w *Workspace) VouchStack(name string) error {
	return w.vouch(Target{Stack: name, Source: FromManifest})
}

// stackProject is the project stack.toml records for name ("" for none,
// or a stack that cannot be read: whatever acts on it reports that).
func stackProject(w *Workspace, name string) string {
	spec, err := stack.Load(w.Home, name)
	if err != nil {
		return ""
	}
	return spec.Project
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
