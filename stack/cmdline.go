package stack

import (
	"fmt"
	"os"
	"strings"
)

// Argv is the server's command line for the stack, flags of absent engines
// left out: always absolute paths, always loopback, registry order, and
// only flags the binary listed in `dev --help`.
func (s *Spec) Argv(srv *Server) []string {
	argv := []string{s.ServerBinary, "dev", "--data-dir", s.DataDir()}
	on := map[string]bool{}
	for _, e := range s.engines() {
		on[e.Name] = true
		for _, l := range e.Listeners {
			argv = append(argv, l.Flag, fmt.Sprintf("127.0.0.1:%d", s.Ports[l.Key]))
		}
	}
	for _, e := range registry {
		if !on[e.Name] && e.OffFlag != "" && srv.Has(e.OffFlag) {
			argv = append(argv, e.OffFlag)
		}
	}
	return append(argv, "--hot-dir", s.HotDir())
}

// scrubbedEnv is the environment the server inherits: the CLI's, minus
// anything that looks like a credential (the server gets the stack's own
// key instead) and LOAMS_FAILPOINTS, which a build without failpoints
// refuses to start with.
func scrubbedEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "LOAMS_FAILPOINTS", name == "LOAMS_TOKEN",
			strings.HasSuffix(name, "_API_KEY"), strings.HasSuffix(name, "_TOKEN"),
			strings.HasSuffix(name, "_SECRET"), strings.HasSuffix(name, "_PASSWORD"):
			continue
		}
		out = append(out, kv)
	}
	return out
}

// serverEnv is scrubbedEnv plus the stack's key.
func serverEnv(key string) []string {
	return append(scrubbedEnv(os.Environ()), "LOAMS_API_KEY="+key)
}
