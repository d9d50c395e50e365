package stack

import (
	"context"
	"errors"
	"fmt"
	"loams.dev/cli/endpoint"
	"os"
	"os/exec"
	"path/filepath"
	"time"

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
	// Notify tells a person something worth knowing that is not an error
	// (a stop waiting out its grace period); nil drops it.
	Notify func(format string, args ...any)
}

func (sv *Supervisor) notify(format string, args ...any) {
	if sv.Notify != nil {
		sv.Notify(format, args...)
	}
}

// Describe reports one stack; wait is the --wait-timeout that separates
// starting from unhealthy.
func (sv *Supervisor) Describe(ctx context.Context, name string) (*Description, error) {
	s, err := Load(sv.Home, name)
	if err != nil {
		return nil, err
	}
	state, p, err := s.state(sv.now(), DefaultWait, sv.probeKey(ctx, name))
	if err != nil {
		return nil, err
	}
	return s.describe(state, p), nil
}

// probeKey is the stack's key for the readiness probe, read when first
// needed; the zero Key when the store cannot give it (the probe then goes
// without, as before there was a key).
func (sv *Supervisor) probeKey(ctx context.Context, name string) func() endpoint.Key {
	return func() endpoint.Key {
		s, err := Load(sv.Home, name)
		if err != nil || sv.Secrets == nil {
			return endpoint.Key{}
		}
		store, err := sv.Secrets(ctx)
		if err != nil {
			return endpoint.Key{}
		}
		key, err := store.Get(ctx, name)
		if err != nil {
			return endpoint.Key{}
		}
		return endpoint.BindKey(key, s.NativeURL())
	}
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
	s, err := LoadTrusted(sv.Home, name)
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return nil, err
	}
	defer unlock()
	state, p, err := s.state(sv.now(), wait, sv.probeKey(ctx, name))
	if err != nil {
		return nil, err
	}
	switch state {
	case Running, Unhealthy:
		return s.describe(state, p), nil
	case Starting: // another start got here first: wait for it, start nothing
		return sv.waitReady(ctx, s, p, nil, wait, sv.probeKey(ctx, name)())
	case Crashed:
		_ = os.Remove(s.PidPath())
	}
	if err := s.checkPorts(); err != nil {
		if e := (*errs.Error)(nil); errors.As(err, &e) {
			e.With("name", name)
		}
		return nil, err
	}
	if !isFile(s.ServerBinary) {
		return nil, binaryGone(s)
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
		return nil, MissingKey(name, store.Backend())
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
	return sv.waitReady(ctx, s, &rec, exited, wait, endpoint.BindKey(key, s.NativeURL()))
}

// readyPoll is how often a starting server's /ready is asked: a loopback
// request costs well under a millisecond, and a fixed short interval
// reports a stack ready within one interval of the server being ready,
// however long it took (a backoff is late by a share of the wait).
const readyPoll = 5 * time.Millisecond

// waitReady polls readiness every readyPoll. A child that exits fails the
// start at once with its exit code and log tail; the deadline fails it
// with timeout.
func (sv *Supervisor) waitReady(ctx context.Context, s *Spec, p *pidFile, exited <-chan error, wait time.Duration, key endpoint.Key) (*Description, error) {
	deadline := time.NewTimer(wait - sv.now().Sub(p.StartedAt))
	defer deadline.Stop()
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	for {
		ok, refused := s.ready(key)
		if ok && s.servedBy(p.PID) {
			return s.describe(Running, p), nil
		}
		if refused != nil && s.servedBy(p.PID) {
			// Said at once: waiting out the timeout would not change the key.
			return nil, errs.New(errs.Unauthenticated,
				fmt.Sprintf("the server is up but refuses the stack's own key: check the server's auth settings in `loams stack logs %s`, or recreate the stack's key (`loams stack delete %s --yes --keep-data`, then `loams stack create %s`)", s.Name, s.Name, s.Name),
				"stack %q answered /ready with %v", s.Name, errs.As(refused).Message).With("name", s.Name).With("log_tail", tailLines(s)).
				ForAgent("read details.log_tail and tell the user the server refuses the stack's key; " + errs.AskUser("loams stack logs "+s.Name))
		}
		if exited == nil && !p.ours() {
			return nil, sv.crashError(s, -1, "") // another start's server: how it ended is not ours to know
		}
		select {
		case err := <-exited:
			code, how := -1, ""
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
				if code < 0 { // killed by a signal: "signal: killed", not "exit code -1"
					how = ee.ProcessState.String()
				}
			}
			_ = os.Remove(s.PidPath())
			return nil, sv.crashError(s, code, how)
		case <-deadline.C:
			return nil, errs.New(errs.Timeout,
				fmt.Sprintf("the server is still starting: watch `loams stack logs %s`, or stop it with `loams stack stop %s` and start again with a longer --wait-timeout", s.Name, s.Name),
				"stack %q was not ready within %s", s.Name, wait).With("name", s.Name).With("log_tail", tailLines(s)).
				ForAgent(errs.ToolCall("stack_status", map[string]any{"name": s.Name}) + " in a minute to see whether it became ready; if it did not, " + errs.AskUser("loams stack logs "+s.Name))
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
}

// servedBy reports whether the native port that answered /ready is held by
// the server we started. Between loams finding a port free and the server
// binding it, another process (a second LOAMS_HOME's stack, a test run next
// door) can take it: its /ready must not pass for ours, or a server that
// exited on "address in use" is reported running. Where the OS cannot tell,
// the answer of /ready stands.
func (s *Spec) servedBy(pid int) bool {
	yes, known := listensOn(pid, s.Ports["native"])
	return yes || !known
}

// crashError is a server that ended while starting: its exit code, or how
// it ended when a signal killed it (how, e.g. "signal: killed": an OOM
// killer, a kill from another shell), or neither when it was not our child.
func (sv *Supervisor) crashError(s *Spec, code int, how string) error {
	ended := fmt.Sprintf("exited while starting (exit code %d)", code)
	switch {
	case how != "":
		ended = "was killed while starting (" + how + ")"
	case code < 0:
		ended = "ended while starting"
	}
	e := errs.New(errs.ServerError, fmt.Sprintf("read the log tail below or `loams stack logs %s`; fix the cause and run `loams stack start %s`", s.Name, s.Name),
		"the server of stack %q %s", s.Name, ended).
		With("name", s.Name).With("exit_code", code).With("log_tail", tailLines(s)).
		ForAgent("read details.log_tail and tell the user the cause; once it is fixed, " + errs.ToolCall("stack_start", map[string]any{"name": s.Name}))
	if how != "" {
		e.With("signal", how)
	}
	return e
}

func tailLines(s *Spec) []string {
	lines, _ := Tail(s.LogPath(), 20)
	return lines
}

// MissingKey is secret_missing for a stack whose key is gone from its
// store: every face that needs the key (start, env export, whoami) says
// it the same way, with the recreate that keeps the data.
func MissingKey(name, backend string) error {
	return errs.New(errs.SecretMissing,
		"the key is gone from the "+backend+" store; recreate the stack (`loams stack delete "+name+" --yes --keep-data`, then `loams stack create "+name+"`)",
		"stack %q has no API key in the %s store", name, backend).With("name", name).With("secrets_backend", backend).
		ForAgent(RecreateForAgent(name))
}

// Stop sends SIGTERM to the server's process group, waits grace, then
// SIGKILL. Stopping a stopped stack succeeds.
func (sv *Supervisor) Stop(ctx context.Context, name string, grace time.Duration) (*Description, error) {
	if grace <= 0 {
		grace = DefaultGrace
	}
	s, err := Load(sv.Home, name)
	if errs.Is(err, errs.StackNotFound) {
		return nil, notFoundError(sv.Home, name, false) // stopping it is no reason to create it
	}
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := sv.stop(ctx, s, grace); err != nil {
		return nil, err
	}
	return s.describe(Stopped, nil), nil
}

func (sv *Supervisor) stop(ctx context.Context, s *Spec, grace time.Duration) error {
	p, err := readPid(s.PidPath())
	if err != nil {
		return err
	}
	if p.ours() {
		_ = sigterm(p.PID)
		// Most servers are gone in well under a second; one that is not
		// gets told why the command waits, and what ends the wait.
		if !waitGone(ctx, p, min(grace, termNotice)) {
			sv.notify("the server (pid %d) has not exited %s after SIGTERM; waiting up to %s (--grace), then SIGKILL", p.PID, termNotice, grace)
			if !waitGone(ctx, p, grace-min(grace, termNotice)) {
				sv.notify("sending SIGKILL to the server (pid %d) after %s", p.PID, grace)
				_ = sigkill(p.PID)
				waitGone(ctx, p, 5*time.Second)
			}
		}
		s.waitPortsFree(ctx, 2*time.Second)
	}
	if err := os.Remove(s.PidPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// termNotice is how long a stop waits quietly before saying it waits.
const termNotice = time.Second

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
	for p, _ := s.busyPort(); p != 0 && time.Now().Before(deadline) && ctx.Err() == nil; p, _ = s.busyPort() {
		time.Sleep(10 * time.Millisecond)
	}
}

// DeleteResult says what delete removed, and where kept data went.
type DeleteResult struct {
	Name     string `json:"name"`
	Deleted  bool   `json:"deleted"`
	KeptData string `json:"kept_data,omitempty"`
	// AlreadyGone: there was no such stack; deleting it again is not an
	// error, as stopping a stopped stack is not.
	AlreadyGone bool `json:"already_gone,omitempty"`
}

// Delete stops the stack and removes its directory and its key. With
// keepData, data/ is moved to $LOAMS_HOME/kept/<name>-<time> first. A
// stack that does not exist is already deleted.
func (sv *Supervisor) Delete(ctx context.Context, name string, keepData bool) (*DeleteResult, error) {
	s, err := Load(sv.Home, name)
	if errs.Is(err, errs.StackNotFound) {
		return &DeleteResult{Name: name, AlreadyGone: true}, nil
	}
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := sv.stop(ctx, s, DefaultGrace); err != nil {
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
	s, err := LoadTrusted(sv.Home, name)
	if err != nil {
		return nil, nil, err
	}
	if state, _, _ := s.state(sv.now(), DefaultWait, sv.probeKey(ctx, name)); state == Running || state == Starting || state == Unhealthy {
		return nil, nil, errs.New(errs.StackRunning, "stop it first: `loams stack stop "+name+"`", "stack %q is already running", name).With("name", name).
			ForAgent(errs.ToolCall("stack_status", map[string]any{"name": name}))
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
		return nil, nil, MissingKey(name, store.Backend())
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

// RecreateForAgent is the agent's remedy for a stack whose key is gone: only
// the user deletes a stack; the agent then creates it again.
func RecreateForAgent(name string) string {
	return errs.AskUser("loams stack delete "+name+" --yes --keep-data") + ", then " + errs.ToolCall("stack_create", map[string]any{"name": name})
}
