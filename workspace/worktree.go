package workspace

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// FromWorktree: the project's loams.toml asks for a stack per git
// worktree ([dev] worktrees = "clone") and this is a linked worktree.
const FromWorktree Source = "worktree"

// WorktreesClone is the [dev] worktrees value that gives each linked git
// worktree a stack of its own; "share" (the default) keeps one stack.
const WorktreesClone = "clone"

// MakeWorktreeStack creates stack name as a copy of from (NAME or
// NAME@SNAP), recording project as its project. Each face sets it: the
// CLI asks at a terminal first, MCP creates. Nil: the stack must exist.
type MakeWorktreeStack func(name, from, project string) error

// worktreeTarget is the loams.toml step for a project that wants a stack
// per worktree: in a linked git worktree it yields <stack>-<worktree
// directory name>. ok is false where the rule does not apply (share, or
// the main checkout). With create, a missing worktree stack is made from
// the main stack (the first command that needs it); without, reading
// commands get the target and find no stack, and nothing is copied on
// their account (a copy of a running main stack stops it for a moment).
func (w *Workspace) worktreeTarget(b Binding, create bool) (t Target, ok bool, err error) {
	if b.Path == "" || b.Stack == "" || b.Worktrees != WorktreesClone {
		return Target{}, false, nil
	}
	root, mainRoot := w.linkedWorktree(b.Dir)
	if root == "" {
		return Target{}, false, nil
	}
	// The project is where loams.toml is (as for any binding), inside the
	// worktree: removing the worktree removes it, and prune sees that.
	t = Target{Stack: WorktreeStackName(b.Stack, root), Source: FromWorktree, Project: b.Dir}
	if _, err := os.Stat(filepath.Join(w.Home.Stack(t.Stack), "stack.toml")); err == nil || !create {
		return t, true, nil
	}
	if _, err := os.Stat(filepath.Join(w.Home.Stack(b.Stack), "stack.toml")); err != nil {
		return t, true, w.mustExist(Target{Stack: b.Stack, Source: FromManifest, Project: b.Dir})
	}
	if err := w.vouchMain(b, root, mainRoot); err != nil {
		return t, true, err
	}
	from := w.cloneSource(b.Stack)
	if w.MakeWorktreeStack == nil {
		return t, true, errs.New(errs.StackNotFound, "create it with `loams stack create "+t.Stack+" --from "+from+"`",
			"this worktree's stack %q does not exist yet", t.Stack).With("name", t.Stack).
			ForAgent(errs.ToolCall("stack_create", map[string]any{"name": t.Stack, "from": from}))
	}
	return t, true, w.MakeWorktreeStack(t.Stack, from, b.Dir)
}

// EnsureStack makes name when it is this worktree's own stack and does not
// exist yet: what starts a stack or writes its .env.loams calls it after
// resolving, so the first command that needs the stack makes it.
func (w *Workspace) EnsureStack(name string) error {
	b, err := w.Binding()
	if err != nil {
		return err
	}
	if t, ok, _ := w.worktreeTarget(b, false); !ok || t.Stack != name {
		return nil
	}
	_, _, err = w.worktreeTarget(b, true)
	return err
}

// WorktreeStackName is <stack>-<worktree directory name>, cleaned to a
// stack name of at most 31 characters.
func WorktreeStackName(main, worktree string) string {
	name := main + "-" + ProposeName(worktree)
	if len(name) > 31 {
		name = strings.TrimRight(name[:31], "-")
	}
	return name
}

// linkedWorktree is the top of the linked git worktree holding dir, or ""
// in a main checkout, outside git, or without git: a linked worktree's
// git dir differs from the common one.
// mainRoot is the main checkout's top (the common git dir's parent).
func (w *Workspace) linkedWorktree(dir string) (root, mainRoot string) {
	w.gitMu.Lock()
	defer w.gitMu.Unlock()
	if r, ok := w.gitTree[dir]; ok {
		return r[0], r[1]
	}
	root, mainRoot = askGitWorktree(dir)
	if w.gitTree == nil {
		w.gitTree = map[string][2]string{}
	}
	w.gitTree[dir] = [2]string{root, mainRoot}
	return root, mainRoot
}

func askGitWorktree(dir string) (root, mainRoot string) {
	cmd := exec.Command("git", "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--show-toplevel")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", ""
	}
	lines := strings.Split(string(bytes.TrimSpace(out)), "\n")
	if len(lines) != 3 || filepath.Clean(lines[0]) == filepath.Clean(lines[1]) {
		return "", ""
	}
	return lines[2], filepath.Dir(filepath.Clean(lines[1]))
}

// vouchMain lets the main stack be copied into this worktree's stack only
// when it was made for this project's main checkout (or for no project):
// a cloned repository's loams.toml naming another project's stack, with
// worktrees = "clone", must not copy that project's data into a stack the
// repository's scripts can read. Otherwise the consent rule asks or refuses.
func (w *Workspace) vouchMain(b Binding, root, mainRoot string) error {
	owner := stackProject(w, b.Stack)
	if owner == "" || sameDir(owner, b.Dir) {
		return nil
	}
	if rel, err := filepath.Rel(root, b.Dir); err == nil && sameDir(owner, filepath.Join(mainRoot, rel)) {
		return nil
	}
	return w.vouch(Target{Stack: b.Stack, Source: FromManifest, Project: b.Dir})
}

// WorktreesSetting is [dev] worktrees of the loams.toml in dir ("" when
// unset or there is none).
func WorktreesSetting(dir string) string {
	b, err := ReadManifest(filepath.Join(dir, ManifestName))
	if err != nil {
		return ""
	}
	return b.Worktrees
}

// InGit reports whether dir is inside a git checkout (git is asked).
func InGit(dir string) bool {
	cmd := exec.Command("git", "rev-parse", "--git-dir")
	cmd.Dir = dir
	return cmd.Run() == nil
}

// SetWorktrees writes [dev] worktrees = mode into dir's loams.toml (which
// init has just written), in place as Bind edits it.
func SetWorktrees(dir, mode string) (string, error) {
	path, _, err := setDev(dir, "worktrees", mode)
	return path, err
}

// WorktreeStack is the worktree rule alone, for init, which reads the
// binding itself: ok when the project's loams.toml gives this worktree a
// stack of its own (made on first need, as Stack makes it).
func (w *Workspace) WorktreeStack() (Target, bool, error) {
	b, err := w.Binding()
	if err != nil || b.Stack == "" {
		return Target{}, false, err
	}
	return w.worktreeTarget(b, true)
}

// cloneSource is what a worktree's stack is made from: the main stack's
// newest snapshot (no stop of the main stack), else the main stack.
func (w *Workspace) cloneSource(main string) string {
	if snaps, err := (&stack.Supervisor{Home: w.Home}).Snapshots(main); err == nil && len(snaps) > 0 {
		return main + "@" + snaps[len(snaps)-1].Name
	}
	return main
}

// WorktreeFrom is, for stack_create {"name"} of this worktree's own stack
// before it exists, what to clone it from; ok is false for any other name.
func (w *Workspace) WorktreeFrom(name string) (from string, ok bool) {
	b, err := w.Binding()
	if err != nil {
		return "", false
	}
	t, ok, _ := w.worktreeTarget(b, false)
	if !ok || t.Stack != name {
		return "", false
	}
	if _, err := os.Stat(filepath.Join(w.Home.Stack(b.Stack), "stack.toml")); err != nil {
		return "", false
	}
	return w.cloneSource(b.Stack), true
}
