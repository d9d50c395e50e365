package pkgadd

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"loams.dev/cli/internal/errs"
	projectdir "loams.dev/cli/project" // the test helper is called project
)

// Manager is one package manager and how to ask it to add a dependency.
type Manager struct {
	Name     string   // the program: npm, pnpm, uv, …
	Language string   // typescript, python, rust, go (the --language values)
	Registry Registry // where its packages come from
	Add      []string // argv after the program: ["install"], ["add"], ["get"]
	DevFlag  []string // nil: the manager has no dev dependencies
	Manifest string   // the file it edits
	Markers  []string // files that mean "this project uses me", strongest first
	// Workspace are the files at a workspace root (up to the repository
	// root) that choose this manager for a member that has only a manifest:
	// packages/web/package.json under a pnpm-lock.yaml is pnpm's, not npm's.
	Workspace []string
	Install   string // how to get the program, for ecosystem_unsupported
}

// Managers is the detection order of the spec: lockfiles before bare manifests.
func Managers() []Manager {
	return []Manager{
		{Name: "pnpm", Language: "typescript", Registry: NPM, Add: []string{"add"}, DevFlag: []string{"-D"},
			Manifest: "package.json", Markers: []string{"pnpm-lock.yaml"}, Workspace: []string{"pnpm-lock.yaml", "pnpm-workspace.yaml"}, Install: "install pnpm: `corepack enable pnpm` or `npm install -g pnpm`"},
		{Name: "bun", Language: "typescript", Registry: NPM, Add: []string{"add"}, DevFlag: []string{"-d"},
			Manifest: "package.json", Markers: []string{"bun.lock", "bun.lockb"}, Workspace: []string{"bun.lock", "bun.lockb"}, Install: "install bun: see https://bun.sh"},
		{Name: "yarn", Language: "typescript", Registry: NPM, Add: []string{"add"}, DevFlag: []string{"-D"},
			Manifest: "package.json", Markers: []string{"yarn.lock"}, Workspace: []string{"yarn.lock", ".yarnrc.yml"}, Install: "install yarn: `corepack enable yarn` or `npm install -g yarn`"},
		{Name: "npm", Language: "typescript", Registry: NPM, Add: []string{"install"}, DevFlag: []string{"--save-dev"},
			Manifest: "package.json", Markers: []string{"package-lock.json", "package.json"}, Workspace: []string{"package-lock.json"}, Install: "install Node.js, which ships npm: see https://nodejs.org"},
		{Name: "uv", Language: "python", Registry: PyPI, Add: []string{"add"}, DevFlag: []string{"--dev"},
			Manifest: "pyproject.toml", Markers: []string{"uv.lock"}, Workspace: []string{"uv.lock"}, Install: "install uv: `pipx install uv` or see https://docs.astral.sh/uv/"},
		{Name: "poetry", Language: "python", Registry: PyPI, Add: []string{"add"}, DevFlag: []string{"--group", "dev"},
			Manifest: "pyproject.toml", Markers: []string{"poetry.lock"}, Workspace: []string{"poetry.lock"}, Install: "install Poetry: `pipx install poetry`"},
		// pip has no `add`: loams runs the virtual environment's pip and
		// pins the line in requirements.txt itself (pip.go).
		{Name: "pip", Language: "python", Registry: PyPI, Add: []string{"-m", "pip", "install"},
			Manifest: "requirements.txt", Install: "create a virtual environment: `python3 -m venv .venv` (loams never installs into the system Python)"},
		{Name: "cargo", Language: "rust", Registry: Crates, Add: []string{"add"}, DevFlag: []string{"--dev"},
			Manifest: "Cargo.toml", Markers: []string{"Cargo.toml"}, Install: "install Rust with rustup: see https://rustup.rs"},
		{Name: "go", Language: "go", Registry: GoMod, Add: []string{"get"},
			Manifest: "go.mod", Markers: []string{"go.mod"}, Install: "install Go: see https://go.dev/dl/"},
	}
}

// Languages are the values of --language.
var languages = []string{"typescript", "python", "rust", "go"}

// languageAliases: JavaScript is the npm ecosystem too.
var languageAliases = map[string]string{"javascript": "typescript", "js": "typescript", "node": "typescript", "ts": "typescript", "py": "python", "golang": "go"}

// defaultManager is used when --language names a language the project shows
// no sign of (a new project): the manager that needs no lockfile.
var defaultManager = map[string]string{"typescript": "npm", "rust": "cargo", "go": "go"}

// ManagerNamed returns the manager called name.
func ManagerNamed(name string) (Manager, bool) {
	for _, m := range Managers() {
		if m.Name == name {
			return m, true
		}
	}
	return Manager{}, false
}

// Found is a manager detected in a project, and the file that gave it away.
type Found struct {
	Manager
	Marker string
	// Venv is the virtual environment pip installs into (pip only; ""
	// when the project has none yet).
	Venv string
	// VenvIgnored says which of the project's venvs were not used, and
	// why (untrustedVenv).
	VenvIgnored []string
}

var toolUV = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\[\s*tool\.uv[\].]`) })
var toolPoetry = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\[\s*tool\.poetry[\].]`) })

// Detect lists, one per language, the managers the project in dir uses,
// from its files alone (uv counts as present). viaPip reports that the
// Python route is pip (a virtual environment or a requirements.txt, no
// uv or Poetry project). A member of a workspace (a manifest and no
// lockfile of its own) takes the manager of the nearest workspace file
// above it, up to the repository root; home is never searched.
func Detect(dir, home string) (found []Found, viaPip bool) {
	return detect(dir, func(k string) string {
		switch k {
		case "HOME":
			return home
		case "PATH":
			return "" // not asked: a pyproject.toml project stays uv's
		}
		return ""
	}, true)
}

// detect is Detect with the caller's environment: a bare pyproject.toml
// is uv's only when uv is on PATH (or assumeUV), else pip's when the
// project has a virtual environment or a requirements.txt.
func detect(dir string, getenv func(string) string, assumeUV bool) (found []Found, viaPip bool) {
	home := getenv("HOME")
	found = detectHere(dir, getenv, assumeUV)
	for i, f := range found {
		if f.Marker == f.Manifest && f.Language != "" && f.Name != "pip" {
			if w, ok := fromWorkspace(dir, home, f.Language); ok {
				found[i] = w
			}
		}
	}
	for _, f := range found {
		viaPip = viaPip || f.Name == "pip"
	}
	return found, viaPip
}

// fromWorkspace looks above dir for a workspace file of language.
func fromWorkspace(dir, home, language string) (Found, bool) {
	above := projectdir.UpToRepository(dir, home)
	if len(above) < 2 {
		return Found{}, false
	}
	for _, d := range above[1:] {
		for _, m := range Managers() {
			if m.Language != language {
				continue
			}
			for _, w := range m.Workspace {
				if _, err := os.Stat(filepath.Join(d, w)); err == nil {
					rel, _ := filepath.Rel(dir, filepath.Join(d, w))
					return Found{Manager: m, Marker: filepath.ToSlash(rel)}, true
				}
			}
		}
	}
	return Found{}, false
}

func detectHere(dir string, getenv func(string) string, assumeUV bool) (found []Found) {
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	seen := map[string]bool{}
	for _, m := range Managers() {
		if seen[m.Language] {
			continue
		}
		for _, marker := range m.Markers {
			if exists(marker) {
				found = append(found, Found{Manager: m, Marker: marker})
				seen[m.Language] = true
				break
			}
		}
	}
	if seen["python"] {
		return found
	}
	pip, hasPip := pipRoute(dir, getenv)
	if exists("pyproject.toml") {
		// No lockfile: [tool.poetry] means Poetry, [tool.uv] means uv; a plain
		// [project] table is uv's when uv is there to run, else pip's when the
		// project has a virtual environment or a requirements.txt.
		b, _ := os.ReadFile(filepath.Join(dir, "pyproject.toml"))
		name := "uv"
		switch {
		case toolPoetry().Match(b) && !toolUV().Match(b):
			name = "poetry"
		case toolUV().Match(b) || assumeUV || lookPath("uv", getenv("PATH")) != "":
		case hasPip:
			return append(found, pip)
		}
		m, _ := ManagerNamed(name)
		return append(found, Found{Manager: m, Marker: "pyproject.toml"})
	}
	if hasPip {
		found = append(found, pip)
	}
	return found
}

// choose picks the manager for language (or the single detected one).
func choose(dir, language string, found []Found, fits func(Manager) bool, getenv func(string) string) (Found, []Found, error) {
	if language != "" {
		if l, ok := languageAliases[language]; ok {
			language = l
		}
		if !slices.Contains(languages, language) {
			return Found{}, nil, errs.New(errs.Usage, "use --language "+strings.Join(languages, ", "), "unknown language %q", language).
				With("language", language).ForAgent("pass language: one of " + strings.Join(languages, ", "))
		}
		for _, f := range found {
			if f.Language == language {
				return f, nil, nil
			}
		}
		if language == "python" {
			// No pyproject.toml: uv add would fail, so a new Python project
			// gets pip into a virtual environment (none yet: the plan says
			// how to make one; loams never installs into the system Python).
			return pipFound(dir, getenv), nil, nil
		}
		m, _ := ManagerNamed(defaultManager[language])
		return Found{Manager: m}, nil, nil
	}
	var fitting []Found
	for _, f := range found {
		if fits(f.Manager) {
			fitting = append(fitting, f)
		}
	}
	switch {
	case len(fitting) == 1:
		return fitting[0], nil, nil
	case len(fitting) > 1:
		return Found{}, fitting, nil
	case len(found) > 0:
		return Found{}, nil, errs.New(errs.EcosystemUnsupported, "pass --language to add it to another part of the project",
			"the requested packages are not published for %s", describeFound(found)).With("found", names(found)).
			ForAgent("pass language to add it to another part of the project")
	}
	return Found{}, nil, errs.New(errs.EcosystemUnsupported,
		"run it in a project with package.json, pyproject.toml, requirements.txt, Cargo.toml or go.mod, or pass --language",
		"no package manifest found in %s", dir).With("project_dir", dir).
		ForAgent("pass language (typescript, python, rust or go) for a new project, or ask the user which project directory to use")
}

func describeFound(found []Found) string {
	return strings.Join(names(found), ", ")
}

func names(found []Found) []string {
	var out []string
	for _, f := range found {
		out = append(out, f.Language+" ("+f.Name+", "+markerOr(f)+")")
	}
	return out
}

func markerOr(f Found) string {
	if f.Marker == "" {
		return "no manifest yet"
	}
	return f.Marker
}
