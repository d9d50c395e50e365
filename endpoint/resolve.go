package endpoint

import (
	"net/url"

	"loams.dev/cli/internal/errs"
)

// Kind says whether an endpoint is one of this machine's stacks.
type Kind string

const (
	Local  Kind = "local"
	Remote Kind = "remote"
)

// Endpoint is the server a command talks to, after resolution.
type Endpoint struct {
	Kind Kind
	// URL is the native API's base URL (no trailing slash). For a local
	// stack that is not known (local:NAME of a missing stack) it is empty.
	URL string
	// Stack is the local stack's name (Kind Local).
	Stack string
	// Profile is the profile whose settings and key apply.
	Profile string
	// Namespace, CACert and Surfaces come from the profile (Kind Remote).
	Namespace string
	CACert    string
	Surfaces  map[string]string
	// From says which setting chose it: --endpoint, LOAMS_ENDPOINT,
	// profile or default_stack.
	From string
}

// Profile is what resolution reads from the active profile.
type Profile struct {
	Name         string
	Endpoint     string
	Namespace    string
	CACert       string
	Surfaces     map[string]string // [profile.NAME.endpoints]
	DefaultStack string
}

// LocalStack is one stack of LOAMS_HOME and the URL of its native API.
type LocalStack struct {
	Name string
	URL  string // http://127.0.0.1:PORT
}

// Request is everything resolution looks at, highest precedence first.
type Request struct {
	Flag    string // --endpoint
	Env     string // LOAMS_ENDPOINT
	Profile Profile
	// Locals lists the local stacks; called only when a URL or local:NAME
	// must be matched against them.
	Locals func() ([]LocalStack, error)
}

// Resolve applies --endpoint > LOAMS_ENDPOINT > the profile's endpoint >
// local:<default_stack>. A loopback URL that is a local stack's native
// endpoint resolves to that stack, so a shell that sourced .env.loams
// (LOAMS_ENDPOINT=http://127.0.0.1:8080) changes nothing. With no default
// stack the result is Local with an empty Stack: the caller picks one.
func Resolve(r Request) (Endpoint, error) {
	raw, from := r.Flag, "--endpoint"
	if raw == "" {
		raw, from = r.Env, "LOAMS_ENDPOINT"
	}
	if raw == "" {
		raw, from = r.Profile.Endpoint, "profile"
	}
	if raw == "" {
		return Endpoint{Kind: Local, Stack: r.Profile.DefaultStack, Profile: r.Profile.Name, From: "default_stack"}, nil
	}
	t, err := ParseTarget(raw)
	if err != nil {
		if e := errs.As(err); e.Code != errs.Internal {
			return Endpoint{}, e.With("from", from)
		}
		return Endpoint{}, err
	}
	if t.URL == nil {
		ep := Endpoint{Kind: Local, Stack: t.Stack, Profile: r.Profile.Name, From: from}
		locals, err := listLocals(r)
		if err != nil {
			return Endpoint{}, err
		}
		for _, l := range locals {
			if l.Name == t.Stack {
				ep.URL = l.URL
				return ep, nil
			}
		}
		return Endpoint{}, errs.New(errs.StackNotFound, "`loams stack list` shows the stacks; create one with `loams stack create "+t.Stack+"`",
			"%s names local:%s, and there is no stack %q", from, t.Stack, t.Stack).With("name", t.Stack)
	}
	if IsLoopback(t.URL.Hostname()) && t.URL.Scheme == "http" && t.URL.Path == "" {
		locals, err := listLocals(r)
		if err != nil {
			return Endpoint{}, err
		}
		for _, l := range locals {
			if sameLocal(t.URL, l.URL) {
				return Endpoint{Kind: Local, Stack: l.Name, URL: l.URL, Profile: r.Profile.Name, From: from}, nil
			}
		}
	}
	return Endpoint{Kind: Remote, URL: t.URL.String(), Profile: r.Profile.Name, Namespace: r.Profile.Namespace,
		CACert: r.Profile.CACert, Surfaces: r.Profile.Surfaces, From: from}, nil
}

func listLocals(r Request) ([]LocalStack, error) {
	if r.Locals == nil {
		return nil, nil
	}
	return r.Locals()
}

// sameLocal matches a loopback URL against a stack's native URL: same port,
// and localhost counts as 127.0.0.1 (the address stacks bind).
func sameLocal(u *url.URL, native string) bool {
	n, err := url.Parse(native)
	if err != nil || n.Port() != u.Port() || u.Port() == "" {
		return false
	}
	host, err := NormalizeHost(u.Hostname())
	if err != nil {
		return false
	}
	return host == n.Hostname() || (host == "localhost" && n.Hostname() == "127.0.0.1")
}
