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
	// Requirements are the package arguments as pinned (what pip's route
	// writes to requirements.txt).
	Requirements []string
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
	// Installed: the package manager ran and succeeded. Never true on a dry run.
	Installed bool `json:"installed"`
	// PackageManagerFound: the program (or the virtual environment's
	// Python) exists, so a real run could start.
	PackageManagerFound bool     `json:"package_manager_found"`
	Pinned              bool     `json:"pinned"`
	DryRun              bool     `json:"dry_run"`
	Dev                 bool     `json:"dev"`
	Notes               []string `json:"notes,omitempty"`
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
	found, _ := detect(req.ProjectDir, req.Getenv, false)
	pick, several, err := choose(req.ProjectDir, req.Language, found, fits, req.Getenv)
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
				ForAgent(errs.ToolCall("add_package", map[string]any{"package": req.Packages[0], "language": langs[0]}) + " (language: " + strings.Join(langs, " or ") + ")")
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
	var args []string
	loams := false // a Loams package, pinned to the CLI's version
	for _, name := range req.Packages {
		if slices.Contains(unknown, name) {
			args = append(args, name) // passed through as given: the user's choice
			continue
		}
		e, _, found := allow.Lookup(name, pick.Registry)
		if !found {
			return nil, errs.New(errs.EcosystemUnsupported, "pass --language for the ecosystem it exists in",
				"%q is not published for %s (%s)", name, pick.Language, pick.Registry).With("package", name).With("registries", allow.Registries(name)).
				ForAgent("pass language for an ecosystem it exists in: " + registriesText(allow.Registries(name)))
		}
		switch {
		case e.Compat():
			args = append(args, compatPin(pick.Registry, e))
			p.Pinned = true
		case ok:
			args = append(args, pinned(pick.Registry, e.Name, major, minor))
			p.Pinned, loams = true, true
		default:
			args = append(args, e.Name)
			loams = true
		}
	}
	if loams && !ok {
		p.Notes = append(p.Notes, "development build of loams: Loams packages are not pinned, the package manager picks the latest release")
		p.Pinned = false
	}
	p.Requirements = args
	argv := append([]string{pick.Name}, pick.Add...)
	if pick.Name == "pip" {
		argv[0] = pipArgv0(req.ProjectDir, pick.Venv)
		if pick.Venv != "" {
			p.Path = venvPython(pick.Venv)
		} else {
			p.Notes = append(p.Notes, "no virtual environment in the project: create one with `python3 -m venv .venv` (loams never installs into the system Python)")
		}
		p.Notes = append(p.Notes, pick.VenvIgnored...)
	} else {
		p.Path = lookPath(pick.Name, req.Getenv("PATH"))
	}
	if req.Dev {
		if pick.DevFlag == nil {
			p.Notes = append(p.Notes, pick.Name+" has no dev dependencies: added as a regular requirement")
		}
		argv = append(argv, pick.DevFlag...)
	}
	p.Argv = append(argv, args...)
	return p, nil
}

func registriesText(regs []Registry) string {
	var out []string
	for _, r := range regs {
		out = append(out, string(r))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// manifestPath names the manifest relative to the project, as users say it.
func (p *Plan) manifestPath() string {
	return filepath.ToSlash(p.Manifest)
}
