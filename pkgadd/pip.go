package pkgadd

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// venvDirs are the project's own virtual environments, in the order
// people name them.
var venvDirs = []string{".venv", "venv"}

// pipRoute is the pip route when the project shows it: a virtual
// environment in the project or a requirements.txt. $VIRTUAL_ENV alone
// does not make a project Python (an npm app run from an activated shell
// is still an npm app), but it is the environment pip would use there.
func pipRoute(dir string, getenv func(string) string) (Found, bool) {
	f := pipFound(dir, getenv)
	_, err := os.Stat(filepath.Join(dir, "requirements.txt"))
	inProject := f.Venv != "" && safefile.Inside(dir, f.Venv)
	return f, err == nil || inProject
}

// pipFound picks the virtual environment: the activated one
// ($VIRTUAL_ENV, what `pip install` in that shell would use), else the
// project's .venv or venv. Venv is "" when there is none.
func pipFound(dir string, getenv func(string) string) Found {
	m, _ := ManagerNamed("pip")
	f := Found{Manager: m, Marker: "requirements.txt"}
	cands := []string{}
	if v := getenv("VIRTUAL_ENV"); v != "" && filepath.IsAbs(v) {
		cands = append(cands, v)
	}
	for _, d := range venvDirs {
		cands = append(cands, filepath.Join(dir, d))
	}
	for i, c := range cands {
		if fi, err := os.Stat(venvPython(c)); err == nil && !fi.IsDir() {
			if activated := i == 0 && len(cands) > len(venvDirs); !activated {
				if why := untrustedVenv(dir, c); why != "" {
					f.VenvIgnored = append(f.VenvIgnored, "ignored "+c+": "+why)
					continue
				}
			}
			f.Venv = c
			if rel, err := filepath.Rel(dir, c); err == nil && !strings.HasPrefix(rel, "..") {
				f.Marker = filepath.ToSlash(rel)
			} else {
				f.Marker = "$VIRTUAL_ENV"
			}
			break
		}
	}
	return f
}

// venvPython is the interpreter of the virtual environment at venv.
func venvPython(venv string) string {
	if runtime.GOOS == "windows" {
		return filepath.Join(venv, "Scripts", "python.exe")
	}
	return filepath.Join(venv, "bin", "python")
}

// pipArgv0 is how the plan names the interpreter: relative inside the
// project (".venv/bin/python", ready to paste there), else absolute.
func pipArgv0(dir, venv string) string {
	if venv == "" {
		venv = filepath.Join(dir, venvDirs[0])
	}
	py := venvPython(venv)
	if rel, err := filepath.Rel(dir, py); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return py
}

var reqName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)
})
var nameSeps = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-_.]+`) })

// canonical is a distribution name as PEP 503 compares them:
// psycopg[binary]>=3.1 and Psycopg are the same package.
func canonical(req string) string {
	m := reqName().FindStringSubmatch(req)
	if m == nil {
		return ""
	}
	return strings.ToLower(nameSeps().ReplaceAllString(m[1], "-"))
}

// pinRequirements returns requirements.txt with each requirement in reqs:
// a line for the same package is replaced (its trailing comment kept),
// others are appended. Comments, options (-r, --index-url), blank lines,
// order and line endings stay as they were.
func pinRequirements(old string, reqs []string) string {
	nl := "\n"
	if strings.Contains(old, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(old, "\r\n", "\n"), "\n"), "\n")
	if old == "" {
		lines = nil
	}
	for _, r := range reqs {
		name, done := canonical(r), false
		for i, l := range lines {
			code, comment := l, ""
			if j := strings.Index(l, " #"); j >= 0 {
				k := len(strings.TrimRight(l[:j], " \t")) // the comment keeps its spacing
				code, comment = l[:k], l[k:]
			}
			t := strings.TrimSpace(code)
			if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "-") || canonical(t) != name {
				continue
			}
			lines[i] = r + comment
			done = true
			break
		}
		if !done {
			lines = append(lines, r)
		}
	}
	return strings.Join(lines, nl) + nl
}

// writeRequirements pins reqs in dir/requirements.txt, atomically, and
// reports whether the bytes changed. A pyproject.toml project without one
// gets none: its dependencies live in pyproject.toml.
func writeRequirements(dir string, reqs []string) (bool, error) {
	path := filepath.Join(dir, "requirements.txt")
	old, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
		if _, perr := os.Stat(filepath.Join(dir, "pyproject.toml")); perr == nil {
			return false, nil
		}
	case err != nil:
		return false, errs.FromOS(err)
	}
	next := pinRequirements(string(old), reqs)
	if next == string(old) {
		return false, nil
	}
	if err := safefile.WriteInside(dir, path, []byte(next), safefile.Mode(path, 0o644)); err != nil {
		return false, errs.FromOS(err)
	}
	return true, nil
}
