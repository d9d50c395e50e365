package commands

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"loams.dev/cli/agents"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
	"loams.dev/cli/serverbin"
	"loams.dev/cli/stack"
)

func pass(name, format string, args ...any) doctorCheck {
	return doctorCheck{Name: name, Status: checkPass, Message: fmt.Sprintf(format, args...)}
}

func problem(status, name, fix, format string, args ...any) doctorCheck {
	return doctorCheck{Name: name, Status: status, Message: fmt.Sprintf(format, args...), Fix: fix}
}

// failed turns an error into a failing check with the error's own hint.
func failed(name string, err error) doctorCheck {
	e := errs.As(err)
	return problem(checkFail, name, e.Hint, "%s", e.Message)
}

// doctorServerFix is how to point loams at a server, in ways that work
// whether or not a release is published.
const doctorServerFix = "set LOAMS_SERVER_BINARY=PATH (or `loams configure set server_binary PATH`), or `loams server install --from FILE`; `loams server list` shows where loams looked"

// checkServerUsed: found, a server, its version and skew.
func checkServerUsed(ctx context.Context, env *doctorEnv) []doctorCheck {
	fd, err := env.f.serverFinder("")
	if err != nil {
		return []doctorCheck{failed("server", err)}
	}
	var out []doctorCheck
	if cur := serverbin.Current(fd.Home); cur != "" && !serverbin.Exists(cur) {
		// $LOAMS_HOME/servers/<version>/<variant>/loams
		version := filepath.Base(filepath.Dir(filepath.Dir(cur)))
		out = append(out, problem(checkWarn, "installed server", "`loams server remove "+version+" --yes` forgets it; `loams server install --from FILE` installs another",
			"%s, marked current by `loams server install`, is gone", cur))
	}
	b, c, err := fd.Find(ctx)
	if errs.Is(err, errs.ServerBinaryNotFound) {
		// The server's own hint may offer `loams server install` alone,
		// which fails while nothing is published: name the ways that work.
		return append(out, problem(checkFail, "server", doctorServerFix, "%s", errs.As(err).Message))
	}
	if err != nil {
		return append(out, failed("server", err))
	}
	info := buildinfo.Get()
	switch serverbin.Skew(info.Version, b.Version, info.IsDev()) {
	case serverbin.Older:
		return append(out, problem(checkWarn, "server", "install a current server (its package, or `loams server install --from FILE`) and point loams at it: "+doctorServerFix,
			"%s at %s (%s) is older than this loams %s supports fully", b.Version, b.Path, c.Source, info.Version))
	case serverbin.Newer:
		return append(out, problem(checkWarn, "server", "upgrade loams to match the server",
			"%s at %s (%s) is newer than this loams %s", b.Version, b.Path, c.Source, info.Version))
	}
	return append(out, pass("server", "%s at %s (%s)", b.Version, b.Path, c.Source))
}

// checkOtherServers: a second server of another version is a trap (the
// one used may not be the one the user upgraded).
func checkOtherServers(ctx context.Context, env *doctorEnv) []doctorCheck {
	fd, err := env.f.serverFinder("")
	if err != nil {
		return nil
	}
	used := ""
	var others []string
	for _, c := range fd.List(ctx) {
		switch {
		case c.Used:
			used = c.Version
		case c.IsServer && c.Version != used:
			others = append(others, c.Path+" ("+c.Version+")")
		}
	}
	if len(others) > 0 {
		return []doctorCheck{problem(checkWarn, "other_servers", "remove the ones you do not use, or pin one with `loams configure set server_binary PATH`",
			"other servers of another version: %s", strings.Join(others, ", "))}
	}
	return []doctorCheck{pass("other_servers", "no server of another version found")}
}

// checkLoamsHome: 0700 and owned by the user; group- or world-writable is
// a fail (anyone could swap a stack's server or read its key).
func checkLoamsHome(_ context.Context, env *doctorEnv) []doctorCheck {
	h, err := env.f.Home()
	if err != nil {
		return []doctorCheck{failed("loams_home", err)}
	}
	fi, err := os.Stat(h.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return []doctorCheck{pass("loams_home", "%s does not exist yet (created on first use)", h.Dir)}
	}
	if err != nil {
		return []doctorCheck{failed("loams_home", err)}
	}
	fix := "chmod 700 " + h.Dir
	if uid, ok := ownerUID(fi); ok && uid != os.Getuid() {
		return []doctorCheck{problem(checkFail, "loams_home", "chown -R $(id -u) "+h.Dir,
			"%s is owned by uid %d, not by you (uid %d)", h.Dir, uid, os.Getuid())}
	}
	switch mode := fi.Mode().Perm(); {
	case mode&0o022 != 0:
		return []doctorCheck{problem(checkFail, "loams_home", fix, "%s is group- or world-writable (%#o)", h.Dir, mode)}
	case mode&0o077 != 0:
		return []doctorCheck{problem(checkWarn, "loams_home", fix, "%s is readable by others (%#o)", h.Dir, mode)}
	}
	return []doctorCheck{pass("loams_home", "%s (0700, yours)", h.Dir)}
}

// checkStacks: the spec parses, the process is alive, the ports are free
// or held by the stack's own server.
func checkStacks(ctx context.Context, env *doctorEnv) []doctorCheck {
	sv, err := env.f.Supervisor()
	if err != nil {
		return []doctorCheck{failed("stacks", err)}
	}
	names := []string{env.stack}
	if env.stack == "" {
		if names, err = stack.List(sv.Home); err != nil {
			return []doctorCheck{failed("stacks", err)}
		}
	}
	var out []doctorCheck
	for _, n := range names {
		name := "stack " + n
		d, err := sv.Describe(ctx, n)
		if err != nil {
			out = append(out, failed(name, err))
			continue
		}
		start := fmt.Sprintf("`loams stack start --name %s`", n)
		switch d.State {
		case stack.Running:
			if !serverbin.Exists(d.ServerBinary) {
				out = append(out, problem(checkWarn, name, "put "+d.ServerBinary+" back, or `loams stack restart --name "+n+" --upgrade` to move the stack to the server loams finds now",
					"running, but its server binary %s is gone: the next start fails", d.ServerBinary))
				continue
			}
			out = append(out, pass(name, "running (pid %d)", *d.PID))
		case stack.Crashed:
			out = append(out, problem(checkFail, name, "read `loams stack logs --name "+n+"`, then "+start, "crashed: the recorded server process is gone"))
		case stack.Unhealthy:
			out = append(out, problem(checkFail, name, "read `loams stack logs --name "+n+"`; `loams stack restart --name "+n+"`", "the server runs but is not ready"))
		case stack.Starting:
			out = append(out, pass(name, "starting"))
		default:
			if busy := busyPorts(d); len(busy) > 0 {
				out = append(out, problem(checkWarn, name, "stop what holds them (`ss -ltnp`), or recreate the stack",
					"stopped, and port(s) %s are taken: %s would fail", strings.Join(busy, ", "), start))
				continue
			}
			out = append(out, pass(name, "stopped; its ports are free"))
		}
	}
	return out
}

// busyPorts are a stopped stack's ports someone else holds.
func busyPorts(d *stack.Description) []string {
	var busy []string
	for _, e := range d.Engines {
		for _, ep := range e.Endpoints {
			u, err := url.Parse(ep)
			if err != nil {
				continue
			}
			l, err := net.Listen("tcp", "127.0.0.1:"+u.Port())
			if err != nil {
				busy = append(busy, u.Port()+" ("+e.Engine+")")
				continue
			}
			_ = l.Close()
		}
	}
	return busy
}

// checkSecretStore: the keyring answers within its timeout, or the file
// store is in use.
func checkSecretStore(ctx context.Context, env *doctorEnv) []doctorCheck {
	h, err := env.f.Home()
	if err != nil {
		return []doctorCheck{failed("secrets", err)}
	}
	p, err := env.f.Profile()
	if err != nil {
		return []doctorCheck{failed("secrets", err)}
	}
	mode, err := secret.ResolveMode(p.Secrets, env.f.Getenv)
	if err != nil {
		return []doctorCheck{failed("secrets", err)}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var fellBack string
	store, err := secret.Open(ctx, mode, h, func(s string) { fellBack = s })
	if err != nil {
		return []doctorCheck{failed("secrets", err)}
	}
	if fellBack != "" {
		return []doctorCheck{pass("secrets", "file store (%s)", strings.TrimPrefix(fellBack, "note: "))}
	}
	return []doctorCheck{pass("secrets", "%s store", store.Backend())}
}

// checkAgentEntries: each agent's loams entry starts and answers MCP, as
// `loams mcp doctor` checks it.
func checkAgentEntries(ctx context.Context, env *doctorEnv) (out []doctorCheck) {
	aenv, err := env.f.agentsEnv(env.projectDir)
	if err != nil {
		return []doctorCheck{failed("agents", err)}
	}
	checks, err := agents.Doctor(ctx, aenv)
	if err != nil {
		return []doctorCheck{failed("agents", err)}
	}
	if len(checks) == 0 {
		return []doctorCheck{pass("agents", "no agent has a loams entry (`loams mcp install --agent claude-code` adds one)")}
	}
	defer func() {
		if len(out) == 0 {
			out = []doctorCheck{pass("agents", "no agent has a user-scope loams entry (this project's are under project_agents)")}
		}
	}()
	for _, c := range checks {
		if c.Project != "" { // the project's own: project_agents
			env.projectAgents = append(env.projectAgents, c)
			continue
		}
		name := "agent " + c.Agent + " " + c.Name
		if c.Connected {
			out = append(out, pass(name, "connected, %d tools (%s)", c.Tools, c.Config))
			continue
		}
		out = append(out, problem(checkFail, name, c.Fix, "%s (%s)", c.Error, c.Config))
	}
	return out
}
