// Package workspacetest holds the target rule's situations, for the
// table tests that feed the same rows to the resolver and to both faces.
package workspacetest

import (
	"os"
	"path/filepath"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/workspace"
)

// FakeStack writes the smallest stack.toml Load accepts: the rule only
// asks which stacks exist.
func FakeStack(t *testing.T, h home.Home, name string) {
	t.Helper()
	dir := h.Stack(name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	spec := "schema = 1\nname = \"" + name + "\"\nengines = [\"native\"]\n[ports]\nnative = 8080\n"
	if err := os.WriteFile(filepath.Join(dir, "stack.toml"), []byte(spec), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Situation is one row of the target rule's table; the commands package
// feeds the same rows to both faces (target_faces_test.go).
type Situation struct {
	Name       string
	Stacks     []string          // stacks that exist
	Manifest   string            // loams.toml at the project root ("" none)
	Default    string            // the profile's default_stack
	Env        map[string]string // LOAMS_STACK …
	Arg, Flag  string            // explicit name, --stack
	Sub        bool              // run from a subdirectory of the project
	ProjectDir bool              // pass the project with --project-dir from elsewhere
	Outside    bool              // run outside any project
	Stack      string            // want
	Source     workspace.Source
	// Unbound: the project has no binding and an implicit step chose, so
	// a read says so and a write is project_unbound.
	Unbound bool
	Code    errs.Code // want this error instead
}

// Situations is the table both faces must agree on.
func Situations() []Situation {
	bound := "[dev]\nstack = \"nodeapp\"\n"
	return []Situation{
		{Name: "argument wins over everything", Stacks: []string{"nodeapp", "pyapp"}, Manifest: bound, Default: "pyapp", Env: map[string]string{"LOAMS_STACK": "pyapp"}, Arg: "pyapp", Flag: "nodeapp", Stack: "pyapp", Source: workspace.FromArgument},
		{Name: "flag beats env and loams.toml", Stacks: []string{"nodeapp", "pyapp"}, Manifest: bound, Env: map[string]string{"LOAMS_STACK": "nodeapp"}, Flag: "pyapp", Stack: "pyapp", Source: workspace.FromFlag},
		{Name: "LOAMS_STACK beats loams.toml", Stacks: []string{"nodeapp", "pyapp"}, Manifest: bound, Env: map[string]string{"LOAMS_STACK": "pyapp"}, Stack: "pyapp", Source: workspace.FromEnv},
		{Name: "loams.toml beats default_stack", Stacks: []string{"nodeapp", "dev"}, Manifest: bound, Default: "dev", Stack: "nodeapp", Source: workspace.FromManifest},
		{Name: "loams.toml from a subdirectory", Stacks: []string{"nodeapp", "dev"}, Manifest: bound, Default: "dev", Sub: true, Stack: "nodeapp", Source: workspace.FromManifest},
		{Name: "loams.toml through --project-dir", Stacks: []string{"nodeapp", "dev"}, Manifest: bound, Default: "dev", ProjectDir: true, Stack: "nodeapp", Source: workspace.FromManifest},
		{Name: "loams.toml naming a missing stack", Stacks: []string{"dev"}, Manifest: "[dev]\nstack = \"gone\"\n", Code: errs.StackNotFound},
		{Name: "loams.toml that does not parse", Stacks: []string{"dev"}, Manifest: "[dev\nstack = 1\n", Code: errs.ConfigUnparseable},
		{Name: "loams.toml without [dev] falls through", Stacks: []string{"dev"}, Manifest: "[functions]\nx = 1\n", Stack: "dev", Source: workspace.FromOnlyStack, Unbound: true},
		{Name: "default_stack", Stacks: []string{"dev", "other"}, Default: "dev", Stack: "dev", Source: workspace.FromDefaultStack, Unbound: true},
		{Name: "default_stack naming a missing stack", Stacks: []string{"dev", "other"}, Default: "gone", Code: errs.StackNotFound},
		{Name: "the only stack", Stacks: []string{"dev"}, Stack: "dev", Source: workspace.FromOnlyStack, Unbound: true},
		{Name: "the only stack outside any project", Stacks: []string{"dev"}, Outside: true, Stack: "dev", Source: workspace.FromOnlyStack},
		{Name: "two stacks and nothing chooses", Stacks: []string{"a", "b"}, Code: errs.StackAmbiguous},
		{Name: "two stacks outside any project", Stacks: []string{"a", "b"}, Outside: true, Code: errs.StackAmbiguous},
		{Name: "no stack at all", Code: errs.StackNotFound},
		{Name: "env outside any project", Stacks: []string{"a", "b"}, Outside: true, Env: map[string]string{"LOAMS_STACK": "b"}, Stack: "b", Source: workspace.FromEnv},
		{Name: "flag outside any project", Stacks: []string{"a", "b"}, Outside: true, Flag: "a", Stack: "a", Source: workspace.FromFlag},
		{Name: "argument with two stacks", Stacks: []string{"a", "b"}, Arg: "b", Stack: "b", Source: workspace.FromArgument},
		{Name: "subdirectory without loams.toml uses the only stack", Stacks: []string{"dev"}, Sub: true, Stack: "dev", Source: workspace.FromOnlyStack, Unbound: true},
	}
}

// Layout makes the machine of a situation: LOAMS_HOME with its stacks and
// config, a project (package.json, maybe loams.toml) and the directory to
// run in. It returns the environment and that directory.
func (sc Situation) Layout(t *testing.T) (env map[string]string, runDir, projectDir string) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	h := home.Home{Dir: filepath.Join(root, "home", ".loams")}
	for _, s := range sc.Stacks {
		FakeStack(t, h, s)
	}
	if sc.Default != "" {
		os.WriteFile(h.Config(), []byte("[profile.default]\ndefault_stack = \""+sc.Default+"\"\n"), 0o600)
	}
	proj := filepath.Join(root, "home", "nodeapp")
	os.MkdirAll(filepath.Join(proj, "src", "lib"), 0o755)
	os.WriteFile(filepath.Join(proj, "package.json"), []byte("{}\n"), 0o644)
	if sc.Manifest != "" {
		os.WriteFile(filepath.Join(proj, workspace.ManifestName), []byte(sc.Manifest), 0o644)
	}
	env = map[string]string{"LOAMS_HOME": h.Dir, "HOME": filepath.Join(root, "home")}
	for k, v := range sc.Env {
		env[k] = v
	}
	runDir = proj
	switch {
	case sc.Sub:
		runDir = filepath.Join(proj, "src", "lib")
	case sc.Outside, sc.ProjectDir:
		runDir = filepath.Join(root, "elsewhere")
		os.MkdirAll(runDir, 0o755)
	}
	if sc.ProjectDir {
		projectDir = proj
	}
	return env, runDir, projectDir
}
