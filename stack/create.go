package stack

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
)

// CreateOptions are `stack create`'s flags and the stack_create tool's inputs.
type CreateOptions struct {
	Name         string
	Engines      []string
	Storage      string
	PortBase     int
	ServerBinary string
	Start        bool
	Wait         time.Duration
	// ConfineStorage is set for storage an agent asked for: it must
	// resolve (symlinks followed) inside StorageRoot or LOAMS_HOME, and a
	// relative path is relative to StorageRoot, never the process's
	// working directory. People at the CLI may choose any path.
	ConfineStorage bool
	StorageRoot    string // the project directory; "" allows LOAMS_HOME only
	// Project is recorded in stack.toml: the project the stack was made for.
	Project string
}

// Create validates, allocates ports, writes stack.toml (0600), makes the
// stack's key, and starts the stack unless told not to. Everything from
// the name check to stack.toml happens under one lock of LOAMS_HOME's
// stacks/ directory: two creates of one name cannot both succeed (each
// would write a key), and parallel creates cannot pick the same ports.
func (sv *Supervisor) Create(ctx context.Context, o CreateOptions) (*Description, error) {
	if !config.StackName().MatchString(o.Name) {
		return nil, nameError(o.Name)
	}
	if err := sv.Home.Ensure(); err != nil {
		return nil, err
	}
	if _, err := sv.Home.EnsureDir("stacks"); err != nil {
		return nil, err
	}
	if err := sv.refuseExisting(o.Name); err != nil { // fail fast, before probing the binary
		return nil, err
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
				"%s has no %s flag", bin, e.Listeners[0].Flag).With("engine", name).
				ForAgent(errs.AskUser("loams server install") + " for a newer server, or call stack_create without " + name + " in engines")
		}
	}
	dir := sv.Home.Stack(o.Name)
	storage, err := parseStorage(o.Storage, dir)
	if o.ConfineStorage && err == nil && o.Storage != "" {
		storage, err = confineStorage(o.Storage, o.StorageRoot, sv.Home.Dir)
	}
	if err != nil {
		return nil, err
	}
	s := &Spec{Schema: 1, Name: o.Name, CreatedAt: sv.now().UTC().Truncate(time.Second), CreatedBy: sv.CreatedBy,
		ServerBinary: bin, ServerVersion: srv.Version, Engines: engines, Metastore: "embedded", ObjectStore: "local",
		Storage: storage, Project: o.Project, dir: dir}
	if err := sv.reserve(ctx, s, o.PortBase); err != nil {
		return nil, err
	}
	if !o.Start {
		return s.describe(Stopped, nil), createDone(s)
	}
	d, err := sv.Start(ctx, o.Name, o.Wait)
	if err != nil && ctx.Err() != nil {
		sv.undo(s) // interrupted: no half-made stack, no server left running
		return nil, err
	}
	if derr := createDone(s); err == nil {
		err = derr
	}
	return d, err
}

// reserve does, under the create lock, what must not interleave with
// another create: the name and count checks, the ports, the directories,
// the key and stack.toml. A failure removes what it made.
func (sv *Supervisor) reserve(ctx context.Context, s *Spec, portBase int) (err error) {
	unlock, err := lockFile(ctx, filepath.Join(sv.Home.StacksDir(), ".create.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	names, err := sv.admit(s)
	if err != nil {
		return err
	}
	if s.Ports, err = sv.allocatePorts(s.Engines, portBase, len(names) == 0); err != nil {
		return err
	}
	var store secret.Store
	keySet := false
	_, statErr := os.Stat(s.dir)
	madeDir := statErr != nil // a directory left without stack.toml is not ours to remove
	defer func() {
		if err != nil { // roll back: no half-made stack directory, no orphan key
			if keySet {
				_ = store.Delete(context.WithoutCancel(ctx), s.Name)
			}
			if madeDir {
				_ = os.RemoveAll(s.dir)
			}
		}
	}()
	for _, d := range []string{s.dir, filepath.Join(s.dir, "logs"), s.DataDir()} {
		if err = os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	if err = sv.markCreating(s); err != nil {
		return err
	}
	if store, err = sv.fileNewKey(ctx, s.Name); err != nil {
		return err
	}
	keySet = true
	return s.save()
}

// fileNewKey generates stack name's API key and files it in the secret
// store, which it returns so a rollback can take the key out again. A new
// stack and a clone each get a key of their own this way.
func (sv *Supervisor) fileNewKey(ctx context.Context, name string) (secret.Store, error) {
	store, err := sv.Secrets(ctx)
	if err != nil {
		return nil, err
	}
	key, err := secret.Generate()
	if err != nil {
		return nil, err
	}
	return store, store.Set(ctx, name, key)
}

// admit is what a new stack and a clone both pass under the create lock:
// the name is free (an abandoned create of it is cleared) and LOAMS_HOME
// holds fewer than MaxStacks. It returns the stacks there are.
func (sv *Supervisor) admit(s *Spec) ([]string, error) {
	if err := sv.refuseExisting(s.Name); err != nil {
		return nil, err
	}
	if dir := sv.Home.Stack(s.Name); abandoned(dir) { // under the lock: one create clears it
		sv.undo(&Spec{Name: s.Name, dir: dir})
	}
	names, err := List(sv.Home)
	if err != nil {
		return nil, err
	}
	if len(names) >= MaxStacks {
		return nil, errs.New(errs.TooManyStacks, "delete one you no longer need (`loams stack list`, `loams stack delete NAME --yes`)",
			"this LOAMS_HOME already has %d stacks, the most it may hold", MaxStacks).With("stacks", names).
			ForAgent(errs.AskUser("loams stack delete NAME --yes") + " for a stack they no longer need (details.stacks lists them)")
	}
	return names, nil
}

func (sv *Supervisor) refuseExisting(name string) error {
	if _, err := os.Stat(specPath(sv.Home, name)); err == nil && !abandoned(sv.Home.Stack(name)) {
		return errs.New(errs.StackExists, "pick another name, or use it: `loams stack start "+name+"`",
			"a stack named %q already exists", name).With("name", name).
			ForAgent(errs.ToolCall("stack_start", map[string]any{"name": name}) + " to use it, or call stack_create with another name")
	}
	return nil
}
