package envfile

import (
	"fmt"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
)

// Remote is what .env.loams holds for a profile whose endpoint is a remote
// deployment (endpoints.md) instead of a local stack.
type Remote struct {
	Profile   string
	URL       string            // the endpoint: LOAMS_ENDPOINT and LOAMS_URL
	Namespace string            // LOAMS_NAMESPACE when set
	Surfaces  map[string]string // [profile.NAME.endpoints]
}

// Surfaces are the compatibility surfaces a profile may list under
// [profile.NAME.endpoints], in file order, with the variable of each.
var Surfaces = []struct{ Key, Var string }{
	{"qdrant", "QDRANT_URL"},
	{"es", "ELASTICSEARCH_URL"},
	{"flight_sql", "LOAMS_FLIGHT_SQL_URL"},
	{"pg", "LOAMS_PG_URL"},
}

// RemoteEnv is the one function the CLI and the MCP tool call to turn a
// remote profile into file contents: its variables and the key `loams
// login` stored, which the caller has checked belongs to r.URL's origin
// (endpoint.Key.For). No key is unauthenticated, never an empty key.
func RemoteEnv(r Remote, key secret.Secret) (Stack, error) {
	if key.IsZero() {
		return Stack{}, errs.New(errs.Unauthenticated, "log in first: `loams login --with-api-key --profile "+r.Profile+"` (the key is read from stdin)",
			"profile %q has no stored API key for %s", r.Profile, r.URL).With("profile", r.Profile).With("endpoint", r.URL).
			ForAgent(errs.AskUser("loams login --with-api-key --profile "+r.Profile) + " (the key never passes through you)")
	}
	vars := []Var{{"LOAMS_URL", r.URL}, {"LOAMS_ENDPOINT", r.URL}}
	if r.Namespace != "" {
		vars = append(vars, Var{"LOAMS_NAMESPACE", r.Namespace})
	}
	for _, s := range Surfaces {
		if v := r.Surfaces[s.Key]; v != "" {
			vars = append(vars, Var{s.Var, v})
		}
	}
	return Stack{Name: r.Profile, Vars: vars, Key: key, Endpoint: r.URL}, nil
}

// IsRemote reports whether s is a remote profile's settings.
func (s Stack) IsRemote() bool { return s.Endpoint != "" }

// Label names what the settings are of, for messages: `stack dev` or
// `profile staging (https://…)`.
func (s Stack) Label() string {
	if s.IsRemote() {
		return fmt.Sprintf("profile %s (%s)", s.Name, s.Endpoint)
	}
	return "stack " + s.Name
}

// head is the file's first variables: LOAMS_STACK for a stack, nothing
// for a remote profile (there is no stack).
func (s Stack) head() []entry {
	if s.IsRemote() {
		return nil
	}
	return []entry{{name: "LOAMS_STACK", value: s.Name}}
}

// header is the first line: it names the stack, or the profile and endpoint.
func (s Stack) header(version string, now time.Time) string {
	if s.IsRemote() {
		return fmt.Sprintf(headerPrefix+"%s for profile %q (%s) at %s. Do not commit.", version, s.Name, s.Endpoint, now.UTC().Format(time.RFC3339))
	}
	return Header(version, s.Name, now)
}

// blockBegin opens the merged block of a stack or of a remote profile.
func (s Stack) blockBegin() string {
	if s.IsRemote() {
		return "# >>> loams (profile " + s.Name + ") >>>"
	}
	return BlockBegin(s.Name)
}
