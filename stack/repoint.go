package stack

import (
	"context"
	"path/filepath"

	"loams.dev/cli/internal/errs"
)

// Repoint is what `stack start` may change in a stopped stack before it
// starts it: the server binary it runs (its recorded one was removed, or
// another is wanted) and its ports (one was taken while it was stopped).
// The key stays, and with it every .env.loams's LOAMS_API_KEY; ports
// change the URLs, which `loams env export` rewrites for the same target.
type Repoint struct {
	ServerBinary string
	PortBase     int
}

// Repoint applies r to stack name, which must not be running.
func (sv *Supervisor) Repoint(ctx context.Context, name string, r Repoint) (*Spec, error) {
	s, err := Load(sv.Home, name)
	if err != nil || (r.ServerBinary == "" && r.PortBase == 0) {
		return s, err
	}
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return nil, err
	}
	defer unlock()
	if p, err := readPid(s.PidPath()); err != nil {
		return nil, err
	} else if p.ours() {
		return nil, errs.New(errs.StackRunning, "stop it first: `loams stack stop "+name+"`, then start it with the new setting",
			"stack %q is running; its server and ports change only while it is stopped", name).With("name", name).
			ForAgent(errs.AskUser("loams stack stop " + name))
	}
	if r.ServerBinary != "" {
		bin, err := filepath.Abs(r.ServerBinary)
		if err != nil {
			return nil, err
		}
		srv, err := sv.serverWithEngines(ctx, s, bin, "point the stack at a server that has it (`loams server list`)", "")
		if err != nil {
			return nil, err
		}
		s.ServerBinary, s.ServerVersion = bin, srv.Version
	}
	if r.PortBase > 0 {
		taken := recordedPorts(sv.Home)
		ports := map[string]int{}
		for _, l := range listenersOf(s.Engines) {
			p := r.PortBase + l.Offset
			if owner := taken[p]; p <= 0 || p > 65535 || owner != "" && owner != name || !portFree(p) {
				if owner == name {
					owner = ""
				}
				return nil, sv.baseTaken(r.PortBase, l, owner)
			}
			ports[l.Key] = p
		}
		s.Ports = ports
	}
	return s, s.save()
}

// binaryGone is a stack whose recorded server binary was removed: named,
// with the ways to point the stack at another (discovery may well find
// one: `server list` shows it, but this stack keeps what it recorded).
func binaryGone(s *Spec) error {
	return errs.New(errs.ServerBinaryNotFound,
		"point the stack at another server: `loams stack start "+s.Name+" --server-binary PATH` (`loams server list` shows the servers found), or `loams stack restart "+s.Name+" --upgrade` for the current one",
		"stack %q runs %s, which is gone (removed or moved)", s.Name, s.ServerBinary).
		With("name", s.Name).With("path", s.ServerBinary).
		ForAgent(errs.AskUser("loams stack start "+s.Name+" --server-binary PATH") + " (the stack's server binary was removed)")
}
