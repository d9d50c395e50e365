package stack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/treecopy"
)

// CloneOptions are `stack create NEW --from NAME[@SNAP]` and stack_create's
// {"name", "from"}.
type CloneOptions struct {
	Name    string
	From    string // NAME or NAME@SNAP
	Start   bool
	Wait    time.Duration
	Project string // recorded in stack.toml
	// PortBase forces the block of ports (--port-base); 0 allocates one.
	PortBase int
}

// ParseFrom splits NAME[@SNAP].
func ParseFrom(from string) (name, snap string) {
	name, snap, _ = strings.Cut(from, "@")
	return name, snap
}

// Clone makes a new stack from a copy of another's data: a consistent copy
// of the live stack, or of one of its snapshots. It has the source's
// engines, server binary and storage kind, its own ports and its own key;
// the source is only read (and, when running, stopped for the copy and
// started again). The new stack directory is filled under a staging name
// and renamed into place: a clone cut short at any moment leaves no stack.
func (sv *Supervisor) Clone(ctx context.Context, o CloneOptions) (*Description, *SnapshotResult, error) {
	if !config.StackName().MatchString(o.Name) {
		return nil, nil, nameError(o.Name)
	}
	fromName, snap := ParseFrom(o.From)
	if !config.StackName().MatchString(fromName) {
		return nil, nil, nameError(fromName)
	}
	if err := sv.refuseExisting(o.Name); err != nil {
		return nil, nil, err
	}
	src, err := LoadTrusted(sv.Home, fromName)
	if err != nil {
		return nil, nil, err
	}
	trees := src.trees()
	if snap != "" {
		dir, err := src.snapshotDir(snap)
		if err != nil {
			return nil, nil, err
		}
		trees = snapshotTrees(dir)
	}
	need, err := treecopy.NeedFor(sv.Home.StacksDir(), paths(trees)...)
	if err != nil {
		return nil, nil, err
	}
	final := sv.Home.Stack(o.Name)
	if err := treecopy.CheckSpace(sv.Home.StacksDir(), need); err != nil {
		return nil, nil, err
	}
	stage, err := treecopy.Stage(final)
	if err != nil {
		return nil, nil, err
	}
	defer stage.Abort()
	res := &SnapshotResult{}
	copyAll := func() error {
		m, _, err := copyTrees(ctx, trees, stage.Dir, nil)
		res.Method = string(m)
		return err
	}
	if snap == "" {
		err = sv.consistent(ctx, src, res, copyAll)
	} else {
		err = copyAll()
	}
	if err != nil {
		return nil, nil, err
	}
	s := &Spec{Schema: 1, Name: o.Name, CreatedAt: sv.now().UTC().Truncate(time.Second), CreatedBy: sv.CreatedBy,
		ServerBinary: src.ServerBinary, ServerVersion: src.ServerVersion, Engines: src.Engines, Metastore: src.Metastore,
		ObjectStore: src.ObjectStore, Storage: cloneStorage(src, final), Project: o.Project, dir: stage.Dir}
	if err := sv.commitClone(ctx, s, stage, o.PortBase); err != nil {
		return nil, nil, err
	}
	if !o.Start {
		return s.describe(Stopped, nil), res, nil
	}
	d, err := sv.Start(ctx, o.Name, o.Wait)
	return d, res, err
}

// cloneStorage keeps the source's storage kind when its hot data lives in
// its own directory (the default); a source whose storage is a path of its
// own (a mount) cannot share it, so the clone keeps its hot data in its
// own directory.
func cloneStorage(src *Spec, dir string) Storage {
	if filepath.Clean(src.Storage.Path) == filepath.Clean(src.dir) {
		return Storage{Kind: src.Storage.Kind, Path: dir}
	}
	return Storage{Kind: "dir", Path: dir}
}

// commitClone does under the create lock what create's reserve does:
// name and count checks, ports no other stack holds, stack.toml written
// into the staging directory, which is then renamed into place, and the
// key. A failure after the rename takes the stack back.
func (sv *Supervisor) commitClone(ctx context.Context, s *Spec, stage *treecopy.Staging, portBase int) (err error) {
	unlock, err := lockFile(ctx, filepath.Join(sv.Home.StacksDir(), ".create.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := sv.admit(s); err != nil {
		return err
	}
	if s.Ports, err = sv.allocatePorts(s.Engines, portBase, false); err != nil {
		return err
	}
	for _, d := range []string{filepath.Join(s.dir, "logs"), filepath.Join(s.dir, "data")} {
		if err = os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	// The key goes in after the rename (the file store keeps it in the
	// stack's directory); until it is there the creating marker says a
	// kill in between left an unfinished stack, which the next command
	// takes back (ClearLeftovers).
	if err = s.save(); err != nil {
		return err
	}
	if err = sv.markCreating(s); err != nil {
		return err
	}
	if err = stage.Commit(); err != nil {
		return err
	}
	s.dir = sv.Home.Stack(s.Name)
	defer func() {
		if err != nil {
			sv.undo(s)
		}
	}()
	if _, err = sv.fileNewKey(ctx, s.Name); err != nil {
		return err
	}
	return createDone(s)
}

// cheapCopy is the most data a copy may hold and still count as cheap on
// a file system that does not clone: a few seconds at disk speed.
const cheapCopy = 1 << 30

// CheapToCopy reports whether cloning the stack costs little: the file
// system clones, or its data is small. Why is said either way, for init's
// offer of a stack per worktree.
func CheapToCopy(h home.Home, name string) (bool, string) {
	s, err := Load(h, name)
	if err != nil {
		return false, "stack " + name + " does not exist yet"
	}
	st, err := treecopy.Measure(paths(s.trees())...)
	if err != nil {
		return false, err.Error()
	}
	switch need := st.Need(h.StacksDir()); {
	case need == 0 && st.Bytes > 0:
		return true, "the file system clones: a copy takes no space"
	case st.Bytes < cheapCopy:
		return true, fmt.Sprintf("its data is %d MB", st.Bytes>>20)
	default:
		return false, fmt.Sprintf("its data is %d MB and the file system does not clone", st.Bytes>>20)
	}
}
