package workspace

import (
	"loams.dev/cli/internal/config"
	"loams.dev/cli/project"
)

// Adoption is what a new stack was adopted as: the project binding written
// (or kept) and the profile default set.
type Adoption struct {
	// Bound is the loams.toml written to bind the project to the stack;
	// "" when the project already had a binding or there is no project.
	Bound string `json:"bound,omitempty"`
	// DefaultFor is the profile whose default_stack became the stack.
	DefaultFor string `json:"default_for,omitempty"`
}

// ProjectRoot is the project directory: --project-dir (or the MCP
// server's), else the nearest ancestor of Dir with a project marker.
// "" outside any project.
func (w *Workspace) ProjectRoot() string {
	dir, err := project.Find("", func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return "" // Dir already is the project directory the face chose
		}
		return w.Getenv(k)
	}, w.Dir)
	if err != nil {
		return ""
	}
	return dir
}

// Adopt is what both faces do after creating a stack: a project with no
// binding is bound to it (loams.toml), and a profile with no default stack
// gets it as its default, so the next command without a name finds it
// whichever face made it.
func (w *Workspace) Adopt(name string) (Adoption, error) {
	var a Adoption
	b, err := w.Binding()
	if err != nil {
		return a, err
	}
	// An ignored loams.toml (another user's) is neither read nor rewritten.
	if root := w.ProjectRoot(); root != "" && b.Stack == "" && b.Ignored == "" {
		path, changed, err := Bind(root, name)
		if err != nil {
			return a, err
		}
		if changed {
			a.Bound = path
		}
		w.Rebind()
	}
	// Only the profile the user chose, never one loams.toml names.
	pname := w.ChosenProfile()
	p, err := w.ProfileNamed(pname, false)
	if err != nil || p.DefaultStack != "" {
		return a, err
	}
	cfg, err := config.Load(w.Home.Config())
	if err != nil {
		return a, err
	}
	if err := cfg.Set(pname, "default_stack", name); err != nil {
		return a, err
	}
	if err := cfg.Save(); err != nil {
		return a, err
	}
	a.DefaultFor = pname
	return a, nil
}
