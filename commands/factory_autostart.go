package commands

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"loams.dev/cli/autostart"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// registration is one stack's autostart registration on one platform.
type registration struct {
	p    *autostart.Platform
	u    autostart.User
	s    autostart.Service
	file string
	run  autostart.Runner
	// notice tells a person what the manager did not do.
	notice func(format string, args ...any)
}

// stackRegistration is the stack an autostart verb acts on (name when
// given, else the target rule) and its registration.
func (f *Factory) stackRegistration(name string) (string, *registration, error) {
	n, err := f.stackName(name)
	if err != nil {
		return n, nil, err
	}
	r, err := f.registrationFor(n, "")
	return n, r, err
}

// registrationFor describes stack name's registration with goos's service
// manager ("" = this machine's).
func (f *Factory) registrationFor(name, goos string) (*registration, error) {
	if goos == "" {
		goos = runtime.GOOS
		if t := testAutostartOS(f.Getenv); t != "" {
			goos = t
		}
	}
	p, err := autostart.For(goos)
	if err != nil {
		return nil, err
	}
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	spec, err := stack.Load(h, name)
	if err != nil {
		return nil, err
	}
	homeDir := f.Getenv("HOME")
	if homeDir == "" {
		homeDir, _ = os.UserHomeDir()
	}
	u := autostart.User{HomeDir: homeDir, UID: os.Getuid(), Getenv: f.Getenv}
	exe, err := f.executable()
	if err != nil {
		return nil, err
	}
	s := autostart.Service{Stack: name, Loams: f.stableExecutable(exe), Home: abs(h.Dir), Dir: abs(spec.Dir()), Log: abs(spec.LogPath()),
		Server: spec.ServerBinary, Env: map[string]string{}}
	// The secret store the user chose must be the one the service reads.
	if v := f.Getenv("LOAMS_SECRETS"); v != "" {
		s.Env["LOAMS_SECRETS"] = v
	}
	if d, n := f.Getenv("USERDOMAIN"), f.Getenv("USERNAME"); n != "" {
		s.UserID = n
		if d != "" {
			s.UserID = d + `\` + n
		}
	}
	return &registration{p: p, u: u, s: s, file: p.File(u, s), run: autostart.Runner{}, notice: f.Notice}, nil
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// managed reports the registration of a stack that this machine's service
// manager runs, or nil: then the stack verbs supervise it themselves.
func (f *Factory) managed(name string) *registration {
	r, err := f.registrationFor(name, "")
	if err != nil || !r.p.Registered(r.u, r.s) {
		return nil
	}
	return r
}

// service is the workspace's view of managed: the service manager that
// owns stack name, through which both faces start and stop it.
func (f *Factory) service(name string) workspace.Service {
	if r := f.managed(name); r != nil {
		return r
	}
	return nil // not a typed nil: the workspace tests for nil
}

// stackView is a stack as the CLI shows it: the description, plus
// whether the service manager runs it (`stack autostart`), which the
// stack package does not know about.
type stackView struct {
	*stack.Description
	Autostart string `json:"autostart"` // on | off
}

func (f *Factory) withAutostart(d *stack.Description) stackView {
	v := stackView{Description: d, Autostart: "off"}
	if f.managed(d.Name) != nil {
		v.Autostart = "on"
	}
	return v
}

// Start asks the service manager to start the stack and waits until it is
// ready: `stack start` (or MCP stack_start) of an autostarted stack, so
// the two supervisors never fight over one server.
func (r *registration) Start(ctx context.Context, sv *stack.Supervisor, wait time.Duration) (*stack.Description, error) {
	d, err := sv.Describe(ctx, r.s.Stack)
	if err != nil || d.State == stack.Running {
		return d, err
	}
	// The manager reopens the log when it starts the service: rotate now.
	if log, err := stack.OpenLog(sv.Home, r.s.Stack); err == nil {
		log.Close()
	}
	if err := r.run.RunAll(ctx, r.p, r.p.Start(r.u, r.s, r.file)); err != nil {
		return nil, err
	}
	return waitRunning(ctx, sv, r.s.Stack, wait)
}

// Stop asks the service manager to stop the stack, then clears what is
// left (the pid file; a server the manager failed to stop).
func (r *registration) Stop(ctx context.Context, sv *stack.Supervisor, grace time.Duration) (*stack.Description, error) {
	if err := r.run.RunAll(ctx, r.p, r.p.Stop(r.u, r.s, r.file)); err != nil {
		r.notice("%v; stopping the server directly", err)
	}
	return sv.Stop(ctx, r.s.Stack, grace)
}

// waitRunning polls until the stack is running: fast at first (25 ms),
// backing off to 200 ms, as `stack start` does.
func waitRunning(ctx context.Context, sv *stack.Supervisor, name string, wait time.Duration) (*stack.Description, error) {
	if wait <= 0 {
		wait = stack.DefaultWait
	}
	deadline := time.Now().Add(wait)
	for interval := 25 * time.Millisecond; ; interval = min(interval*2, 200*time.Millisecond) {
		d, err := sv.Describe(ctx, name)
		if err != nil || d.State == stack.Running {
			return d, err
		}
		if time.Now().After(deadline) {
			tail, _ := stack.Tail(d.LogPath, 20)
			return nil, errs.New(errs.Timeout, "read `loams stack logs "+name+"` and `loams stack autostart status "+name+"`",
				"the service manager did not bring stack %q up within %s (state: %s)", name, wait, d.State).
				With("name", name).With("log_tail", tail)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(interval):
		}
	}
}

// autostartOff unregisters the stack, removes the file and stops what the
// manager leaves running. A manager that cannot be reached does not keep
// the file in place: it could never start anything either.
func (f *Factory) autostartOff(ctx context.Context, r *registration) error {
	if !r.p.Registered(r.u, r.s) {
		return nil
	}
	if err := r.run.RunAll(ctx, r.p, r.p.Off(r.u, r.s, r.file)); err != nil {
		f.Notice("%v", err)
	}
	if err := autostart.Remove(r.file, r.s.Stack); err != nil {
		return err
	}
	if r.p.AfterOff != nil {
		_ = r.run.RunAll(ctx, r.p, r.p.AfterOff(r.u, r.s, r.file))
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	_, err = sv.Stop(ctx, r.s.Stack, stack.DefaultGrace)
	return err
}
