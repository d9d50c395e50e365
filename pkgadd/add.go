package pkgadd

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
)

// DefaultTimeout bounds a package manager run; it is then killed.
const DefaultTimeout = 5 * time.Minute

// Request is one `pkg add` / add_package call.
type Request struct {
	Packages   []string
	Language   string // "" = detect from the project's files
	Dev        bool
	DryRun     bool
	ProjectDir string // absolute, from project.Find
	// Version is the CLI's version ("0.1.3"); "dev" pins nothing.
	Version string
	// AllowUnknown lets names outside packages.toml through (the terminal
	// does, after a warning; agents never do).
	AllowUnknown bool
	// Getenv supplies PATH for finding the package manager and the child's
	// environment overrides.
	Getenv  func(string) string
	Timeout time.Duration // 0 = DefaultTimeout
	// Choose asks the user to pick among several ecosystems; nil means
	// "no one to ask": selection_required.
	Choose func(candidates []Found) (Found, error)
}

// Plan is what will run, before it runs.
type Plan struct {
	Found
	Argv    []string // Argv[0] is the program's name as the user knows it
	Path    string   // the program's absolute path; "" when not installed
	Unknown []string // names that are not in packages.toml (terminal only)
	Pinned  bool
	Notes   []string
	Dir     string
}

// Result is the outcome, shared by the CLI verb and the MCP tool.
type Result struct {
	Ecosystem       Registry `json:"ecosystem"`
	Language        string   `json:"language"`
	PackageManager  string   `json:"package_manager"`
	Command         []string `json:"command"`
	ProjectDir      string   `json:"project_dir"`
	Manifest        string   `json:"manifest"`
	ManifestChanged bool     `json:"manifest_changed"`
	ExitCode        *int     `json:"exit_code"` // null on a dry run: nothing ran
	OutputTail      string   `json:"output_tail"`
	Installed       bool     `json:"installed"`
	Pinned          bool     `json:"pinned"`
	DryRun          bool     `json:"dry_run"`
	Dev             bool     `json:"dev"`
	Notes           []string `json:"notes,omitempty"`
}

// Prepare resolves the packages, the ecosystem and the argv without running anything.
func Prepare(req Request) (*Plan, error) {
	if len(req.Packages) == 0 {
		return nil, errs.New(errs.Usage, "name a package, e.g. `loams pkg add sdk`; allowed: "+strings.Join(Allowed().Logical(), ", "), "no package given").
			ForAgent(errs.ToolCall("add_package", map[string]any{"package": "sdk"}))
	}
	allow := Allowed()
	var unknown []string
	for _, p := range req.Packages {
		if len(allow.Registries(p)) == 0 {
			if !req.AllowUnknown {
				return nil, errs.New(errs.PackageNotAllowed, "allowed packages: "+strings.Join(allow.Logical(), ", ")+" (or their registry names in packages.toml)",
					"%q is not a Loams package", p).With("package", p)
			}
			unknown = append(unknown, p)
		}
	}
	// A known package narrows the ecosystem: `celery` exists only on PyPI.
	fits := func(m Manager) bool {
		for _, p := range req.Packages {
			if slices.Contains(unknown, p) {
				continue
			}
			if _, _, ok := allow.Lookup(p, m.Registry); !ok {
				return false
			}
		}
		return true
	}
	found, pipOnly := Detect(req.ProjectDir, req.Getenv("HOME"))
	pick, several, err := choose(req.ProjectDir, req.Language, found, pipOnly, fits)
	if err != nil {
		return nil, err
	}
	if several != nil {
		if req.Choose == nil {
			var langs []string
			for _, f := range several {
				langs = append(langs, f.Language)
			}
			return nil, errs.New(errs.SelectionRequired, "pass --language "+strings.Join(langs, " or "),
				"this project has several ecosystems: %s", describeFound(several)).With("ecosystems", langs).
				ForAgent(errs.AskUser("loams pkg add PACKAGE --language "+strings.Join(langs, "|")) + " (add_package cannot choose between them)")
		}
		if pick, err = req.Choose(several); err != nil {
			return nil, err
		}
	}
	return plan(req, pick, unknown)
}

func plan(req Request, pick Found, unknown []string) (*Plan, error) {
	allow := Allowed()
	p := &Plan{Found: pick, Unknown: unknown, Dir: req.ProjectDir}
	major, minor, ok := minorOf(req.Version)
	p.Pinned = ok && len(unknown) < len(req.Packages)
	if !ok {
		p.Notes = append(p.Notes, "development build of loams: no version pinned, the package manager picks the latest release")
	}
	argv := append([]string{pick.Name}, pick.Add...)
	if req.Dev {
		if pick.DevFlag == nil {
			p.Notes = append(p.Notes, pick.Name+" has no dev dependencies: added as a regular requirement")
		}
		argv = append(argv, pick.DevFlag...)
	}
	for _, name := range req.Packages {
		if slices.Contains(unknown, name) {
			argv = append(argv, name) // passed through as given: the user's choice
			continue
		}
		reg, _, found := allow.Lookup(name, pick.Registry)
		if !found {
			return nil, errs.New(errs.EcosystemUnsupported, "pass --language for the ecosystem it exists in",
				"%q is not published for %s (%s)", name, pick.Language, pick.Registry).With("package", name).With("registries", allow.Registries(name)).
				ForAgent(errs.AskUser("loams pkg add "+name+" --language LANGUAGE") + " for an ecosystem it exists in (details.registries)")
		}
		if ok {
			reg = pinned(pick.Registry, reg, major, minor)
		}
		argv = append(argv, reg)
	}
	p.Argv = argv
	p.Path = lookPath(pick.Name, req.Getenv("PATH"))
	return p, nil
}

// manifestPath names the manifest relative to the project, as users say it.
func (p *Plan) manifestPath() string {
	return filepath.ToSlash(p.Manifest)
}
