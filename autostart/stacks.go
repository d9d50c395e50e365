package autostart

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/stack"
)

// Stacks is the autostart of one LOAMS_HOME's stacks on this machine:
// which stacks the service manager owns, and turning that on and off.
// Both faces reach it through the workspace (start, stop) and the CLI's
// autostart verbs; the caller only wires it.
type Stacks struct {
	Home   func() (home.Home, error)
	Getenv func(string) string
	// OS is the platform whose manager is used; "" is this machine's.
	OS string
	// Executable is the loams a registration runs (a stable path: one
	// that survives upgrades).
	Executable func() (string, error)
	Supervisor func() (*stack.Supervisor, error)
	// Notice tells a person what the manager did not do.
	Notice func(format string, args ...any)
}

// Registration is one stack's autostart registration on one platform.
type Registration struct {
	Platform *Platform
	User     User
	Service  Service
	File     string
	Run      Runner
	stacks   *Stacks
}

// Registration describes stack name's registration with goos's service
// manager ("" = s.OS, else this machine's).
func (s *Stacks) Registration(name, goos string) (*Registration, error) {
	if goos == "" {
		goos = s.OS
	}
	if goos == "" {
		goos = runtime.GOOS
	}
	p, err := For(goos)
	if err != nil {
		return nil, err
	}
	h, err := s.Home()
	if err != nil {
		return nil, err
	}
	spec, err := stack.Load(h, name)
	if err != nil {
		return nil, err
	}
	homeDir := s.Getenv("HOME")
	if homeDir == "" {
		homeDir, _ = os.UserHomeDir()
	}
	u := User{HomeDir: homeDir, UID: os.Getuid(), Getenv: s.Getenv}
	exe, err := s.Executable()
	if err != nil {
		return nil, err
	}
	sv := Service{Stack: name, Loams: exe, Home: abs(h.Dir), Dir: abs(spec.Dir()), Log: abs(spec.LogPath()),
		Server: spec.ServerBinary, Env: map[string]string{}}
	// The secret store the user chose must be the one the service reads.
	if v := s.Getenv("LOAMS_SECRETS"); v != "" {
		sv.Env["LOAMS_SECRETS"] = v
	}
	if d, n := s.Getenv("USERDOMAIN"), s.Getenv("USERNAME"); n != "" {
		sv.UserID = n
		if d != "" {
			sv.UserID = d + `\` + n
		}
	}
	return &Registration{Platform: p, User: u, Service: sv, File: p.File(u, sv), stacks: s}, nil
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Managed reports the registration of a stack that this machine's
// service manager runs, or nil: then the stack verbs supervise it
// themselves.
func (s *Stacks) Managed(name string) *Registration {
	r, err := s.Registration(name, "")
	if err != nil || !r.Registered() {
		return nil
	}
	return r
}

// State is "on" when the service manager runs stack name, else "off".
func (s *Stacks) State(name string) string {
	if s.Managed(name) != nil {
		return "on"
	}
	return "off"
}

// Registered reports whether the registration file is in place.
func (r *Registration) Registered() bool { return r.Platform.Registered(r.User, r.Service) }

func (r *Registration) notice(format string, args ...any) {
	if r.stacks.Notice != nil {
		r.stacks.Notice(format, args...)
	}
}

// Start asks the service manager to start the stack and waits until it is
// ready: `stack start` (or MCP stack_start) of an autostarted stack, so
// the two supervisors never fight over one server.
func (r *Registration) Start(ctx context.Context, sv *stack.Supervisor, wait time.Duration) (*stack.Description, error) {
	d, err := sv.Describe(ctx, r.Service.Stack)
	if err != nil || d.State == stack.Running {
		return d, err
	}
	// The manager reopens the log when it starts the service: rotate now.
	if log, err := stack.OpenLog(sv.Home, r.Service.Stack); err == nil {
		log.Close()
	}
	if err := r.Run.RunAll(ctx, r.Platform, r.Platform.Start(r.User, r.Service, r.File)); err != nil {
		return nil, err
	}
	return WaitRunning(ctx, sv, r.Service.Stack, wait)
}

// Stop asks the service manager to stop the stack, then clears what is
// left (the pid file; a server the manager failed to stop).
func (r *Registration) Stop(ctx context.Context, sv *stack.Supervisor, grace time.Duration) (*stack.Description, error) {
	if err := r.Run.RunAll(ctx, r.Platform, r.Platform.Stop(r.User, r.Service, r.File)); err != nil {
		r.notice("%v; stopping the server directly", err)
	}
	return sv.Stop(ctx, r.Service.Stack, grace)
}

// On checks the manager is there before writing anything, hands a running
// stack over to it, writes the file and runs the commands; a failure
// removes the file again. progress shows msg while the wait runs.
func (r *Registration) On(ctx context.Context, wait time.Duration, progress func(msg string, fn func() error) error) (*stack.Description, error) {
	if err := r.Run.Check(ctx, r.Platform, r.User); err != nil {
		return nil, err
	}
	sv, err := r.stacks.Supervisor()
	if err != nil {
		return nil, err
	}
	if _, err := stack.LoadTrusted(sv.Home, r.Service.Stack); err != nil {
		return nil, err
	}
	if r.Registered() { // again: re-register (loams moved, the file changed)
		_ = r.Run.RunAll(ctx, r.Platform, r.Platform.Off(r.User, r.Service, r.File))
	}
	if d, err := sv.Describe(ctx, r.Service.Stack); err == nil && d.PID != nil {
		r.notice("stopping stack %s so that %s runs it", r.Service.Stack, r.Platform.Manager)
		if _, err := sv.Stop(ctx, r.Service.Stack, stack.DefaultGrace); err != nil {
			return nil, err
		}
	}
	if log, err := stack.OpenLog(sv.Home, r.Service.Stack); err == nil {
		log.Close()
	}
	if err := Write(r.File, r.Service.Stack, r.Platform.Bytes(r.Service)); err != nil {
		return nil, err
	}
	if err := r.Run.RunAll(ctx, r.Platform, r.Platform.On(r.User, r.Service, r.File)); err != nil {
		_ = Remove(r.File, r.Service.Stack)
		return nil, err
	}
	var d *stack.Description
	err = progress("starting "+r.Service.Stack+" under "+r.Platform.Manager+"…", func() (err error) {
		d, err = WaitRunning(ctx, sv, r.Service.Stack, wait)
		return err
	})
	return d, err
}

// Off unregisters the stack, removes the file and stops what the manager
// leaves running. A manager that cannot be reached does not keep the file
// in place: it could never start anything either.
func (r *Registration) Off(ctx context.Context) error {
	if !r.Registered() {
		return nil
	}
	if err := r.Run.RunAll(ctx, r.Platform, r.Platform.Off(r.User, r.Service, r.File)); err != nil {
		r.notice("%v", err)
	}
	if err := Remove(r.File, r.Service.Stack); err != nil {
		return err
	}
	if r.Platform.AfterOff != nil {
		_ = r.Run.RunAll(ctx, r.Platform, r.Platform.AfterOff(r.User, r.Service, r.File))
	}
	sv, err := r.stacks.Supervisor()
	if err != nil {
		return err
	}
	_, err = sv.Stop(ctx, r.Service.Stack, stack.DefaultGrace)
	return err
}

// WaitRunning polls until the stack is running: fast at first (25 ms),
// backing off to 200 ms, as `stack start` does.
func WaitRunning(ctx context.Context, sv *stack.Supervisor, name string, wait time.Duration) (*stack.Description, error) {
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
