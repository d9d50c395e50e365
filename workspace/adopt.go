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

// ProjectRoot is the project directory: the one the face was given
// (--project-dir, the agent's), else the nearest ancestor of Dir with a
// project marker. "" outside any project.
func (w *Workspace) ProjectRoot() string {
	dir, _ := w.Project()
	return dir
}

// Project is ProjectRoot with the reason there is none (project.Find's
// errors: no project found, a --project-dir that does not exist). Both
// faces take the project they write into from here.
func (w *Workspace) Project() (string, error) {
	getenv := func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return "" // Dir already is the project directory the face chose
		}
		return w.Getenv(k)
	}
	if w.explicitDir {
		return project.Find(w.Dir, getenv, "")
	}
	return project.Find("", getenv, w.Dir)
}

// EnvDir is the directory .env.loams is written into, by both faces:
// beside the loams.toml that chose the stack, else the project directory.
// In a monorepo an app's loams.toml may sit below the nearest marker
// (repo/app with only repo/.git): the target names repo/app, the app
// reads its .env.loams there, doctor looks there, and two such apps must
// not share (and collide on) one file at the repository's root. An
// explicit --project-dir is taken as given.
func (w *Workspace) EnvDir() (string, error) {
	if !w.explicitDir {
		if b, err := w.Binding(); err == nil && b.Dir != "" {
			return b.Dir, nil
		}
	}
	return w.Project()
}

// Adopt is what both faces do after creating a stack: a project with no
// binding is bound to it (loams.toml); outside any project, a profile with
// no default stack gets it as its default. The next command without a name
// finds it whichever face made it.
func (w *Workspace) Adopt(name string) (Adoption, error) {
	var a Adoption
	b, err := w.Binding()
	if err != nil {
		return a, err
	}
	if root := w.ProjectRoot(); root != "" {
		// An ignored loams.toml (another user's) is neither read nor rewritten.
		if b.Stack == "" && b.Ignored == "" {
			path, changed, err := Bind(root, name)
			if err != nil {
				return a, err
			}
			if changed {
				a.Bound = path
			}
			w.Rebind()
		}
		// The project's loams.toml binds it; a profile default made here
		// would become every unbound directory's (project.md).
		return a, nil
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

// Forget is what a deleted stack leaves behind in config.toml: every
// profile whose default_stack named it has it unset (else every directory
// with no binding would fail on a stack that is gone). It returns those
// profiles. A loams.toml still naming it is doctor's to report, in its
// project.
func (w *Workspace) Forget(name string) ([]string, error) {
	cfg, err := config.Load(w.Home.Config())
	if err != nil {
		return nil, err
	}
	var unset []string
	for _, pname := range cfg.ProfileNames() {
		if p, ok := cfg.Profile(pname); ok && p.DefaultStack == name {
			if err := cfg.Unset(pname, "default_stack"); err != nil {
				return unset, err
			}
			unset = append(unset, pname)
		}
	}
	if len(unset) == 0 {
		return nil, nil
	}
	return unset, cfg.Save()
}
