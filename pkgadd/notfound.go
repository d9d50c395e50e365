package pkgadd

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"loams.dev/cli/internal/errs"
)

// What each package manager prints when the registry answers "no such
// package" (404, or no version at all), and when it could not reach the
// registry. A network failure is checked first: pip says "No matching
// distribution" after failing to connect too, and that one is retryable.
var (
	notFoundSigns = []string{"E404", "404 Not Found", "ERR_PNPM_FETCH_404", "is not in this registry",
		"No matching distribution found", "was not found in the package registry", "could not be found in registry index",
		"no matching versions for query", "410 Gone", "Package not found", "doesn't match any versions", "not found in the package registry"}
	networkSigns = []string{"ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "EAI_AGAIN", "ECONNRESET", "NewConnectionError",
		"Max retries exceeded", "Temporary failure in name resolution", "network is unreachable", "connection refused",
		"no such host", "error sending request", "Could not resolve host", "ProxyError", "timed out", "Failed to connect"}
)

var urlRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s'"<>]+`) })

// defaultRegistry names the registry when the output does not.
var defaultRegistry = map[Registry]string{NPM: "the npm registry", PyPI: "PyPI", Crates: "crates.io", GoMod: "the Go module proxy"}

// Unreachable reports whether a failed run's output says the registry could
// not be reached (refused, no DNS, timed out): a retry may help there.
func Unreachable(tail string) bool {
	low := strings.ToLower(tail)
	for _, s := range networkSigns {
		if strings.Contains(low, strings.ToLower(s)) {
			return true
		}
	}
	return false
}

// notPublished turns a failed run whose output says the registry has no
// such package into package_not_published, naming the registry, the
// package and what to use instead. Any other failure returns nil.
func notPublished(p *Plan, tail string) *errs.Error {
	if Unreachable(tail) {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(tail, "\n") {
		for _, s := range notFoundSigns {
			if strings.Contains(strings.ToLower(l), strings.ToLower(s)) {
				lines = append(lines, l)
				break
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	registry, line := registryOf(p, tail, lines)
	missing := missingPackages(p, tail)
	allow := Allowed()
	loams := false
	for _, m := range missing {
		if e, _, ok := allow.Lookup(m, p.Registry); ok && !e.Compat() {
			loams = true
		}
	}
	hint := "check the package name and the registry setting (" + registryVar[p.Registry] + "), then run the command again"
	agent := errs.AskUser("loams pkg add "+strings.Join(p.Requirements, " ")) + " after checking the registry setting"
	if loams {
		// The snippets' language for this ecosystem (there are no Rust snippets).
		lang := map[string]string{"typescript": "javascript", "python": "python", "go": "go"}[p.Language]
		if lang == "" {
			lang = "shell"
		}
		hint = "the Loams SDK is not published there yet: talk to Loams through the compatibility clients (`loams pkg add qdrant`, " +
			"`elasticsearch` or `postgres`) or plain HTTP (`loams docs snippet --engine native --language " + lang + "`); see `loams docs show guides/sdks.md`"
		agent = errs.ToolCall("add_package", map[string]any{"package": "qdrant"}) + " (or elasticsearch, postgres) and " +
			errs.ToolCall("get_sdk_snippet", map[string]any{"engine": "qdrant", "language": lang}) + "; the Loams SDK is not published yet"
	}
	return errs.New(errs.PackageNotPublished, hint, "%s: %s not published on %s", p.Name, strings.Join(missing, ", "), registry).
		With("registry", registry).With("packages", missing).With("command", p.Argv).With("output_tail", tail).
		With("registry_says", strings.TrimSpace(line)).ForAgent(agent)
}

// registryVar is where users point each manager at another registry.
var registryVar = map[Registry]string{NPM: "npm_config_registry or .npmrc", PyPI: "PIP_INDEX_URL or pip.conf",
	Crates: "~/.cargo/config.toml", GoMod: "GOPROXY"}

// registryOf names the registry: the origin of the URL on a failing line
// (npm's "404 Not Found - GET http://…"), else of pip's "Looking in
// indexes:", else the manager's default. line is the failing line that
// says the most (the one with the URL, else the first).
func registryOf(p *Plan, tail string, failing []string) (registry, line string) {
	cands := slices.Clone(failing)
	for _, l := range strings.Split(tail, "\n") {
		if strings.HasPrefix(l, "Looking in indexes:") {
			cands = append(cands, l)
		}
	}
	line = failing[0]
	for _, c := range cands {
		if m := urlRE().FindString(c); m != "" {
			if u, err := url.Parse(m); err == nil && u.Host != "" {
				if slices.Contains(failing, c) {
					line = c
				}
				origin := u.Scheme + "://" + u.Host
				if p.Registry == PyPI {
					return origin + strings.TrimSuffix(u.Path, "/"), line // the index, e.g. …/simple
				}
				return origin, line
			}
		}
	}
	return defaultRegistry[p.Registry], line
}

// missingPackages are the requested packages the output names; all of
// them when it names none (a manager that only says "404").
func missingPackages(p *Plan, tail string) []string {
	var names, all []string
	for _, r := range p.Requirements {
		n := bareName(p.Registry, r)
		all = append(all, n)
		if strings.Contains(tail, n) || strings.Contains(tail, strings.ReplaceAll(n, "/", "%2f")) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return all
	}
	return names
}

// bareName strips the version from a pinned argument.
func bareName(reg Registry, arg string) string {
	switch reg {
	case PyPI:
		if m := reqName().FindString(arg); m != "" {
			return strings.TrimSpace(m)
		}
	default:
		if i := strings.LastIndex(arg, "@"); i > 0 {
			return arg[:i]
		}
	}
	return arg
}
