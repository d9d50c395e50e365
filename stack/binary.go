package stack

import (
	"context"
	"strconv"
	"time"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/serverbin"
)

// Server is a Loams server binary and what its `dev --help` offers.
type Server struct{ *serverbin.Binary }

// Available reports whether the binary has every listener flag of e.
func (s *Server) Available(e Engine) bool {
	for _, l := range e.Listeners {
		if !s.Has(l.Flag) {
			return false
		}
	}
	return true
}

// EnginesAvailable names the engines the binary can run.
func (s *Server) EnginesAvailable() []string {
	var out []string
	for _, e := range registry {
		if s.Available(e) {
			out = append(out, e.Name)
		}
	}
	return out
}

// Locate finds the server binary in the spec's order (serverbin.Finder):
// --server-binary, LOAMS_SERVER_BINARY, the profile's server_binary, the
// installed one, loams-server and every other loams on PATH, the packages'
// /usr/bin/loams, Loams Desktop, ~/.cargo/bin/loams; never this CLI.
func Locate(h home.Home, explicit, profile string, getenv func(string) string) (string, error) {
	b, _, err := serverbin.NewFinder(h, getenv, explicit, profile).Find(context.Background())
	if err != nil {
		return "", err
	}
	return b.Path, nil
}

func notFound() *errs.Error { return serverbin.NotFound() }

// Probe asks the binary what it is (cached by path, size and mtime). A
// binary that is not a Loams server is server_binary_not_found here: the
// stack cannot run it.
func Probe(ctx context.Context, h home.Home, path string) (*Server, error) {
	b, err := serverbin.Probe(ctx, h, path)
	if err != nil {
		return nil, notFound().With("path", path)
	}
	if !b.IsServer {
		return nil, errs.New(errs.ServerBinaryNotFound, "point the stack at a Loams server binary (`loams server list` shows what loams found), or run `loams server install`",
			"%s is not a Loams server: %s", path, b.Why).With("path", path).ForAgent(errs.AskUser("loams server install"))
	}
	return &Server{b}, nil
}

func isFile(p string) bool { return serverbin.Exists(p) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// identifyTimeout bounds GetInstance on loopback, where it answers in
// well under a millisecond; describe must not hang on a wedged server.
const identifyTimeout = time.Second

// identify asks the running server what it is (GetInstance) and fills in
// its version, edition and services; an older server without the route
// keeps the version `--version` gave at create. Compatibility compares
// that version with this CLI's (own minor or one below).
func (s *Spec) identify(d *Description) {
	native, _, _ := listenerOf("--listen")
	ctx, cancel := context.WithTimeout(context.Background(), identifyTimeout)
	defer cancel()
	if in, err := serverbin.GetInstance(ctx, native.url(s.Ports[native.Key])); err == nil {
		d.Edition, d.Services = in.Edition, in.Services
		if in.ServerVersion != "" {
			d.ServerVersion = serverbin.SemVer(in.ServerVersion)
		}
	}
	b := buildinfo.Get()
	d.Compatibility = serverbin.Skew(b.Version, d.ServerVersion, b.IsDev())
}

// UseCurrentServer moves a stack to the server discovery finds now (the
// one `loams server install` marked current, or whatever comes first):
// `stack restart --upgrade`. Stacks otherwise keep the binary recorded in
// stack.toml, so installing a server never changes a running stack.
func (sv *Supervisor) UseCurrentServer(ctx context.Context, name string) (*Spec, error) {
	s, err := Load(sv.Home, name)
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return nil, err
	}
	defer unlock()
	bin, err := Locate(sv.Home, "", sv.ProfileServer, sv.Getenv)
	if err != nil {
		return nil, err
	}
	srv, err := sv.serverWithEngines(ctx, s, bin, "keep the stack on its server (restart without --upgrade)",
		errs.AskUser("loams stack start "+name)+" (it keeps the stack on its server)")
	if err != nil {
		return nil, err
	}
	s.ServerBinary, s.ServerVersion = bin, srv.Version
	return s, s.save()
}

// serverWithEngines probes bin, the server stack s is moving to (start
// --server-binary, restart --upgrade), and wants a flag there for every
// engine s has, so a move never leaves an engine behind. A missing one is
// feature_not_in_server whose hint offers instead (this caller's way out)
// or recreating the stack without it; agentHint, when given, is what an
// MCP caller is told.
func (sv *Supervisor) serverWithEngines(ctx context.Context, s *Spec, bin, instead, agentHint string) (*Server, error) {
	srv, err := Probe(ctx, sv.Home, bin)
	if err != nil {
		return nil, err
	}
	for _, e := range s.engines() {
		if !srv.Available(e) {
			return nil, errs.New(errs.FeatureNotInServer, instead+", or recreate the stack without "+e.Name,
				"%s has no %s flag, which stack %q needs for %s", bin, e.Listeners[0].Flag, s.Name, e.Name).
				With("engine", e.Name).With("path", bin).ForAgent(agentHint)
		}
	}
	return srv, nil
}
