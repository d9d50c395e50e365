package pkgadd

import (
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

// What each manager prints for "no such package" (as recorded from real
// runs or their docs) is package_not_published; a network failure, even one
// followed by pip's "no matching distribution", is not.
func TestNotPublishedReadsEachManager(t *testing.T) {
	t.Parallel()
	plan := func(name string, reg Registry, lang string, reqs ...string) *Plan {
		return &Plan{Found: Found{Manager: Manager{Name: name, Registry: reg, Language: lang}}, Requirements: reqs, Argv: append([]string{name}, reqs...)}
	}
	for _, c := range []struct {
		plan     *Plan
		tail     string
		registry string // "" = not package_not_published
	}{
		{plan("npm", NPM, "typescript", "@loams/client@~0.1.0"), "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@loams%2fclient - Not found\n", "https://registry.npmjs.org"},
		{plan("pnpm", NPM, "typescript", "@loams/live@~0.1.0"), " ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/@loams%2Flive: Not Found - 404\n", "https://registry.npmjs.org"},
		{plan("uv", PyPI, "python", "loams-celery>=0.1,<0.2"), "  × No solution found when resolving dependencies:\n  ╰─▶ Because loams-celery was not found in the package registry and app depends on loams-celery>=0.1,<0.2, we can conclude…\n", "PyPI"},
		{plan("cargo", Crates, "rust", "loams@0.1"), "error: the crate `loams` could not be found in registry index.\n", "crates.io"},
		{plan("go", GoMod, "go", "loams.dev/go@v0.1"), "go: loams.dev/go@v0.1: reading https://proxy.golang.org/loams.dev/go/@v/list: 404 Not Found\n", "https://proxy.golang.org"},
		{plan("pip", PyPI, "python", "loams>=0.1,<0.2"), "WARNING: Retrying (Retry(total=4…)) after connection broken by 'NewConnectionError(…)'\nERROR: No matching distribution found for loams<0.2,>=0.1\n", ""},
		{plan("npm", NPM, "typescript", "pg@^8.23.1"), "npm error code ECONNREFUSED\nnpm error errno ECONNREFUSED\n", ""},
		{plan("npm", NPM, "typescript", "pg@^8.23.1"), "npm error code ERESOLVE\nnpm error ERESOLVE could not resolve\n", ""},
	} {
		err := notPublished(c.plan, c.tail)
		if c.registry == "" {
			if err != nil {
				t.Errorf("%s %q: want a plain failure, got %v", c.plan.Name, c.tail, err)
			}
			continue
		}
		if err == nil || err.Code != errs.PackageNotPublished || err.Details["registry"] != c.registry {
			t.Errorf("%s: got %v (details %v), want package_not_published on %s", c.plan.Name, err, err, c.registry)
			continue
		}
		if c.plan.Name == "cargo" && strings.Contains(err.Hint, "--language rust") {
			t.Errorf("cargo: the hint names Rust snippets, which do not exist: %q", err.Hint)
		}
	}
}
