package workspace_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/workspace"
	"loams.dev/cli/workspace/workspacetest"
)

func TestTargetRule(t *testing.T) {
	for _, sc := range workspacetest.Situations() {
		t.Run(sc.Name, func(t *testing.T) {
			env, dir, pdir := sc.Layout(t)
			w := &workspace.Workspace{Home: home.Home{Dir: env["LOAMS_HOME"]}, Getenv: func(k string) string { return env[k] },
				Dir: dir, StackFlag: sc.Flag}
			if pdir != "" {
				w.Dir = pdir
			}
			got, err := w.Stack(sc.Arg)
			if sc.Code != "" {
				if !errs.Is(err, sc.Code) {
					t.Fatalf("want %s, got %+v %v", sc.Code, got, err)
				}
				return
			}
			if err != nil || got.Stack != sc.Stack || got.Source != sc.Source || got.Unbound != sc.Unbound {
				t.Fatalf("got %+v %v, want %s from %s (unbound %v)", got, err, sc.Stack, sc.Source, sc.Unbound)
			}
			// What acts for the project refuses exactly the unbound rows.
			acted, err := w.ActOn(sc.Arg)
			if sc.Unbound != errs.Is(err, errs.ProjectUnbound) || !sc.Unbound && (err != nil || acted != got) {
				t.Fatalf("ActOn: %+v %v; unbound %v", acted, err, sc.Unbound)
			}
		})
	}
}

// project_unbound names the project and the stack it would have been, and
// tells each face how to choose (project.md "A project that is not bound").
func TestUnboundProjectNamesTheProjectAndTheStack(t *testing.T) {
	env, dir, _ := workspacetest.Situation{Stacks: []string{"nodeapp", "other"}, Default: "nodeapp"}.Layout(t)
	w := &workspace.Workspace{Home: home.Home{Dir: env["LOAMS_HOME"]}, Getenv: func(k string) string { return env[k] }, Dir: dir}
	read, err := w.Stack("")
	if err != nil || read.Stack != "nodeapp" || !read.Unbound || read.Project != dir ||
		!strings.Contains(read.Line(), dir+" has no loams.toml") {
		t.Fatalf("a read still follows default_stack and says so: %+v %v %q", read, err, read.Line())
	}
	_, err = w.ActOn("")
	e := errs.As(err)
	// The project directory of Layout is called nodeapp too: the stack
	// of that name was not created for it (no project recorded), so it is
	// proposed as is.
	if e.Code != errs.ProjectUnbound || e.ExitCode() != 3 || !strings.Contains(e.Message, dir) ||
		!strings.Contains(e.Message, `"nodeapp"`) || e.Details["stack"] != "nodeapp" ||
		!strings.Contains(e.HintFor(false), "`loams init`") || !strings.Contains(e.HintFor(false), "--stack nodeapp") ||
		!strings.Contains(e.HintFor(true), `call stack_create with {"name": "nodeapp"}`) || strings.Contains(e.HintFor(true), "--") {
		t.Fatalf("got %+v", e)
	}
	// Named explicitly, it acts.
	if got, err := w.ActOn("other"); err != nil || got.Stack != "other" || got.Unbound {
		t.Fatalf("an explicit name acts: %+v %v", got, err)
	}
	env["LOAMS_STACK"] = "other"
	if got, err := w.ActOn(""); err != nil || got.Source != workspace.FromEnv {
		t.Fatalf("LOAMS_STACK is a choice: %+v %v", got, err)
	}
}

// A binding to a missing stack tells each face its own remedy.
func TestMissingBoundStackHintsFitTheFace(t *testing.T) {
	env, dir, _ := workspacetest.Situation{Stacks: []string{"dev"}, Manifest: "[dev]\nstack = \"nodeapp\"\n"}.Layout(t)
	w := &workspace.Workspace{Home: home.Home{Dir: env["LOAMS_HOME"]}, Getenv: func(k string) string { return env[k] }, Dir: dir}
	_, err := w.Stack("")
	e := errs.As(err)
	if e.Code != errs.StackNotFound || e.HintFor(false) != "create it with `loams stack create nodeapp`" ||
		e.HintFor(true) != `call stack_create with {"name":"nodeapp"}` || !strings.Contains(e.Message, "loams.toml") {
		t.Fatalf("got %+v", e)
	}
}

func TestAmbiguousListsTheStacksAndTheWaysToChoose(t *testing.T) {
	env, dir, _ := workspacetest.Situation{Stacks: []string{"nodeapp", "pyapp"}}.Layout(t)
	w := &workspace.Workspace{Home: home.Home{Dir: env["LOAMS_HOME"]}, Getenv: func(k string) string { return env[k] }, Dir: dir}
	_, err := w.Stack("")
	e := errs.As(err)
	if e.Code != errs.StackAmbiguous || e.ExitCode() != 2 || !strings.Contains(e.Message, "`nodeapp`, `pyapp`") ||
		!strings.Contains(e.Hint, "loams.toml") || strings.Contains(e.HintFor(true), "--") {
		t.Fatalf("got %+v", e)
	}
}

func TestProposeName(t *testing.T) {
	for in, want := range map[string]string{
		"/x/My App": "my-app", "/x/nodeapp": "nodeapp", "/x/42things": "things", "/x/___": "dev",
		"/x/Café_Ünïcode": "caf-n-code", "/x/" + strings.Repeat("a", 40): strings.Repeat("a", 31),
	} {
		if got := workspace.ProposeName(in); got != want {
			t.Errorf("workspace.ProposeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestProposeForDoesNotTakeOverAnotherProjectsStack(t *testing.T) {
	env, dir, _ := workspacetest.Situation{}.Layout(t)
	h := home.Home{Dir: env["LOAMS_HOME"]}
	workspacetest.FakeStack(t, h, "nodeapp")
	spec := filepath.Join(h.Stack("nodeapp"), "stack.toml")
	b, _ := os.ReadFile(spec)
	os.WriteFile(spec, append([]byte("project = \"/somewhere/else/nodeapp\"\n"), b...), 0o600)
	w := &workspace.Workspace{Home: h, Getenv: func(k string) string { return env[k] }, Dir: dir}
	if got := w.ProposeFor(dir); got != "nodeapp-2" {
		t.Fatalf("ProposeFor = %q, want nodeapp-2", got)
	}
	os.WriteFile(spec, append([]byte("project = \""+dir+"\"\n"), b...), 0o600)
	if got := w.ProposeFor(dir); got != "nodeapp" {
		t.Fatalf("its own project's stack is proposed again, got %q", got)
	}
}

// .env.loams goes beside the loams.toml that chose the stack: in a
// monorepo app below the repository's only marker (repo/app/loams.toml,
// repo/.git) that is repo/app, the project the target names, not repo/.
// An explicit project directory is taken as given; with no loams.toml it
// is the nearest marker.
func TestEnvDirIsBesideTheBinding(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	repo, app := filepath.Join(root, "repo"), filepath.Join(root, "repo", "app")
	src := filepath.Join(app, "src")
	for _, d := range []string{filepath.Join(repo, ".git"), src} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return root
		}
		return ""
	}
	envDir := func(sel workspace.Selection) string {
		t.Helper()
		w := workspace.Open(sel, workspace.Env{Home: home.Home{Dir: filepath.Join(root, "loams")}, Getenv: getenv})
		dir, err := w.EnvDir()
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	if got := envDir(workspace.Selection{Cwd: src}); got != repo {
		t.Errorf("no loams.toml: %s, want %s", got, repo)
	}
	os.WriteFile(filepath.Join(app, workspace.ManifestName), []byte("[dev]\nstack = \"mono\"\n"), 0o644)
	if got := envDir(workspace.Selection{Cwd: src}); got != app {
		t.Errorf("below repo/app/loams.toml: %s, want %s", got, app)
	}
	if got := envDir(workspace.Selection{ProjectDir: src}); got != src {
		t.Errorf("--project-dir %s: %s", src, got)
	}
}
