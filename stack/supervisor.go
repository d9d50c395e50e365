package stack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/secret"
)

// Defaults of the lifecycle flags.
const (
	DefaultWait  = 60 * time.Second
	DefaultGrace = 30 * time.Second
)

// Supervisor creates, starts and stops the stacks of one LOAMS_HOME.
type Supervisor struct {
	Home home.Home
	// Secrets opens the key store on first use (the keyring probe is slow
	// when the Secret Service is frozen, so it is never opened eagerly).
	Secrets       func(ctx context.Context) (secret.Store, error)
	Getenv        func(string) string
	ProfileServer string // the profile's server_binary
	CreatedBy     string // "loams 0.1.0"
	Now           func() time.Time
}

// CreateOptions are `stack create`'s flags and the stack_create tool's inputs.
type CreateOptions struct {
	Name         string
	Engines      []string
	Storage      string
	PortBase     int
	ServerBinary string
	Start        bool
	Wait         time.Duration
}

// Create validates, allocates ports, writes stack.toml (0600), makes the
// stack's key, and starts the stack unless told not to.
func (sv *Supervisor) Create(ctx context.Context, o CreateOptions) (*Description, error) {
	if !config.StackName.MatchString(o.Name) {
		return nil, nameError(o.Name)
	}
	if err := sv.Home.Ensure(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(specPath(sv.Home, o.Name)); err == nil {
		return nil, errs.New(errs.StackExists, "pick another name, or use it: `loams stack start --name "+o.Name+"`",
			"a stack named %q already exists", o.Name).With("name", o.Name)
	}
	names, err := List(sv.Home)
	if err != nil {
		return nil, err
	}
	if len(names) >= MaxStacks {
		return nil, errs.New(errs.TooManyStacks, "delete one you no longer need (`loams stack list`, `loams stack delete --name NAME --yes`)",
			"this LOAMS_HOME already has %d stacks, the most it may hold", MaxStacks).With("stacks", names)
	}
	bin, err := Locate(sv.Home, o.ServerBinary, sv.ProfileServer, sv.Getenv)
	if err != nil {
		return nil, err
	}
	srv, err := Probe(ctx, sv.Home, bin)
	if err != nil {
		return nil, err
	}
	engines, err := ParseEngines(o.Engines, srv.Available)
	if err != nil {
		return nil, err
	}
	for _, name := range engines {
		if e, _ := EngineByName(name); !srv.Available(e) {
			return nil, errs.New(errs.FeatureNotInServer, "install a newer Loams server, or leave "+name+" out of --engines",
				"%s has no %s flag", bin, e.Listeners[0].Flag).With("engine", name)
		}
	}
	dir := sv.Home.Stack(o.Name)
	storage, err := parseStorage(o.Storage, dir)
	if err != nil {
		return nil, err
	}
	ports, err := allocatePorts(sv.Home, engines, o.PortBase)
	if err != nil {
		return nil, err
	}
	s := &Spec{Schema: 1, Name: o.Name, CreatedAt: sv.now().UTC().Truncate(time.Second), CreatedBy: sv.CreatedBy,
		ServerBinary: bin, ServerVersion: srv.Version, Engines: engines, Metastore: "embedded", ObjectStore: "local",
		Storage: storage, Ports: ports, dir: dir}
	for _, d := range []string{dir, filepath.Join(dir, "logs"), s.DataDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	store, err := sv.Secrets(ctx)
	if err != nil {
		return nil, err
	}
	key, err := secret.Generate()
	if err != nil {
		return nil, err
	}
	if err := store.Set(ctx, o.Name, key); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := s.save(); err != nil {
		_ = store.Delete(ctx, o.Name)
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if !o.Start {
		return s.describe(Stopped, nil), nil
	}
	return sv.Start(ctx, o.Name, o.Wait)
}

// Describe reports one stack; wait is the --wait-timeout that separates
// starting from unhealthy.
func (sv *Supervisor) Describe(ctx context.Context, name string) (*Description, error) {
	s, err := Load(sv.Home, name)
	if err != nil {
		return nil, err
	}
	state, p, err := s.state(sv.now(), DefaultWait)
	if err != nil {
		return nil, err
	}
	return s.describe(state, p), nil
}

// Status describes every stack, or the one named.
func (sv *Supervisor) Status(ctx context.Context, name string) ([]*Description, error) {
	names := []string{name}
	if name == "" {
		var err error
		if names, err = List(sv.Home); err != nil {
			return nil, err
		}
	}
	out := []*Description{}
	for _, n := range names {
		d, err := sv.Describe(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// Start starts a stack and waits until it is ready. A running stack is
// returned as is; a crashed one is cleaned up and started.
func (sv *Supervisor) Start(ctx context.Context, name string, wait time.Duration) (*Description, error) {
	if wait <= 0 {
		wait = DefaultWait
	}
	s, err := Load(sv.Home, name)
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return nil, err
	}
	defer unlock()
	state, p, err := s.state(sv.now(), wait)
	if err != nil {
		return nil, err
	}
	switch state {
	case Running, Unhealthy:
		return s.describe(state, p), nil
	case Starting: // another start got here first: wait for it, start nothing
		return sv.waitReady(ctx, s, p, nil, wait)
	case Crashed:
		_ = os.Remove(s.PidPath())
	}
	if err := s.checkPorts(); err != nil {
		return nil, err.(*errs.Error).With("name", name)
	}
	if !isFile(s.ServerBinary) {
		return nil, notFound().With("path", s.ServerBinary)
	}
	srv, err := Probe(ctx, sv.Home, s.ServerBinary)
	if err != nil {
		return nil, err
	}
	store, err := sv.Secrets(ctx)
	if err != nil {
		return nil, err
	}
	key, err := store.Get(ctx, name)
	if errors.Is(err, secret.ErrNotFound) {
		return nil, missingKey(name, store.Backend())
	}
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(s.dir, "logs"), 0o700); err != nil {
		return nil, err
	}
	if err := rotateLog(s.LogPath()); err != nil {
		return nil, err
	}
	logf, err := os.OpenFile(s.LogPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	argv := s.Argv(srv)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logf, logf // stdin stays nil: /dev/null
	cmd.Env = serverEnv(key.Reveal())
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, errs.New(errs.ServerError, "check that "+s.ServerBinary+" runs on this machine", "starting the server: %v", err).With("name", name)
	}
	rec := pidFile{PID: cmd.Process.Pid, StartTime: startTime(cmd.Process.Pid), StartedAt: sv.now().UTC()}
	if err := writePid(s.PidPath(), rec); err != nil {
		_ = sigkill(rec.PID)
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // also reaps the child when a long-lived caller (mcp serve) outlives it
	return sv.waitReady(ctx, s, &rec, exited, wait)
}

// waitReady polls readiness, fast at first (25 ms) then backing off to
// 200 ms. A child that exits fails the start at once with its exit code
// and log tail; the deadline fails it with timeout.
func (sv *Supervisor) waitReady(ctx context.Context, s *Spec, p *pidFile, exited <-chan error, wait time.Duration) (*Description, error) {
	deadline := time.NewTimer(wait - sv.now().Sub(p.StartedAt))
	defer deadline.Stop()
	// Poll about every tenth of the time waited so far, between 5 and
	// 200 ms: fast at first, gentle later, and never more than ~10% late
	// (doubling would be up to twice as late as the server).
	began := time.Now()
	for {
		if s.ready() {
			return s.describe(Running, p), nil
		}
		if exited == nil && !p.ours() {
			return nil, sv.crashError(s, -1)
		}
		select {
		case err := <-exited:
			code := -1
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
			_ = os.Remove(s.PidPath())
			return nil, sv.crashError(s, code)
		case <-deadline.C:
			return nil, errs.New(errs.Timeout,
				fmt.Sprintf("the server is still starting: watch `loams stack logs --name %s`, or stop it with `loams stack stop --name %s` and start again with a longer --wait-timeout", s.Name, s.Name),
				"stack %q was not ready within %s", s.Name, wait).With("name", s.Name).With("log_tail", tailLines(s))
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(max(time.Since(began)/10, 5*time.Millisecond), 200*time.Millisecond)):
		}
	}
}

func (sv *Supervisor) crashError(s *Spec, code int) error {
	return errs.New(errs.ServerError, fmt.Sprintf("read the log tail below or `loams stack logs --name %s`; fix the cause and run `loams stack start --name %s`", s.Name, s.Name),
		"the server of stack %q exited while starting (exit code %d)", s.Name, code).
		With("name", s.Name).With("exit_code", code).With("log_tail", tailLines(s))
}

func tailLines(s *Spec) []string {
	lines, _ := Tail(s.LogPath(), 20)
	return lines
}

func missingKey(name, backend string) error {
	return errs.New(errs.SecretMissing,
		"the key is gone from the "+backend+" store; recreate the stack (`loams stack delete --name "+name+" --yes --keep-data`, then `loams stack create --name "+name+"`)",
		"stack %q has no API key in the %s store", name, backend).With("name", name).With("secrets_backend", backend)
}

// Stop sends SIGTERM to the server's process group, waits grace, then
// SIGKILL. Stopping a stopped stack succeeds.
func (sv *Supervisor) Stop(ctx context.Context, name string, grace time.Duration) (*Description, error) {
	if grace <= 0 {
		grace = DefaultGrace
	}
	s, err := Load(sv.Home, name)
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := s.stop(ctx, grace); err != nil {
		return nil, err
	}
	return s.describe(Stopped, nil), nil
}

func (s *Spec) stop(ctx context.Context, grace time.Duration) error {
	p, err := readPid(s.PidPath())
	if err != nil {
		return err
	}
	if p.ours() {
		_ = sigterm(p.PID)
		if !waitGone(ctx, p, grace) {
			_ = sigkill(p.PID)
			waitGone(ctx, p, 5*time.Second)
		}
		s.waitPortsFree(ctx, 2*time.Second)
	}
	if err := os.Remove(s.PidPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func waitGone(ctx context.Context, p *pidFile, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for interval := 2 * time.Millisecond; time.Now().Before(deadline); interval = min(interval*2, 50*time.Millisecond) {
		if !p.ours() {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(interval):
		}
	}
	return !p.ours()
}

// waitPortsFree gives the kernel a moment to close the server's sockets:
// a multi-threaded server's main thread can be a zombie while its other
// threads still hold the listeners, and a restart right after a stop would
// otherwise find its own ports in use. Ports held by someone else only
// cost the wait; start names them.
func (s *Spec) waitPortsFree(ctx context.Context, d time.Duration) {
	deadline := time.Now().Add(d)
	for s.checkPorts() != nil && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
}

// DeleteResult says what delete removed, and where kept data went.
type DeleteResult struct {
	Name     string `json:"name"`
	Deleted  bool   `json:"deleted"`
	KeptData string `json:"kept_data,omitempty"`
}

// Delete stops the stack and removes its directory and its key. With
// keepData, data/ is moved to $LOAMS_HOME/kept/<name>-<time> first.
func (sv *Supervisor) Delete(ctx context.Context, name string, keepData bool) (*DeleteResult, error) {
	s, err := Load(sv.Home, name)
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := s.stop(ctx, DefaultGrace); err != nil {
		return nil, err
	}
	res := &DeleteResult{Name: name, Deleted: true}
	if keepData {
		kept := filepath.Join(sv.Home.Dir, "kept", name+"-"+sv.now().UTC().Format("20060102T150405Z"))
		if err := os.MkdirAll(filepath.Dir(kept), 0o700); err != nil {
			return nil, err
		}
		if err := os.Rename(s.DataDir(), kept); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		res.KeptData = kept
	}
	store, err := sv.Secrets(ctx)
	if err != nil {
		return nil, err
	}
	if err := store.Delete(ctx, name); err != nil && !errors.Is(err, secret.ErrNotFound) {
		return nil, err
	}
	if err := os.RemoveAll(s.dir); err != nil {
		return nil, err
	}
	return res, nil
}

// Command is the foreground server command line with its environment,
// for `stack run` (systemd/launchd units exec it).
func (sv *Supervisor) Command(ctx context.Context, name string) (argv, env []string, err error) {
	s, err := Load(sv.Home, name)
	if err != nil {
		return nil, nil, err
	}
	if state, _, _ := s.state(sv.now(), DefaultWait); state == Running || state == Starting || state == Unhealthy {
		return nil, nil, errs.New(errs.StackRunning, "stop it first: `loams stack stop --name "+name+"`", "stack %q is already running", name).With("name", name)
	}
	if err := s.checkPorts(); err != nil {
		return nil, nil, err
	}
	srv, err := Probe(ctx, sv.Home, s.ServerBinary)
	if err != nil {
		return nil, nil, err
	}
	store, err := sv.Secrets(ctx)
	if err != nil {
		return nil, nil, err
	}
	key, err := store.Get(ctx, name)
	if errors.Is(err, secret.ErrNotFound) {
		return nil, nil, missingKey(name, store.Backend())
	}
	if err != nil {
		return nil, nil, err
	}
	return s.Argv(srv), serverEnv(key.Reveal()), nil
}

func (sv *Supervisor) now() time.Time {
	if sv.Now == nil {
		return time.Now()
	}
	return sv.Now()
}
