package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
	"loams.dev/cli/treecopy"
)

// Snapshot is snapshot.json: what a snapshot holds and the SHA-256 of its
// manifest (manifest.json beside it: every file's path, size and SHA-256,
// every symlink's target).
type Snapshot struct {
	Name           string    `json:"name"`
	Stack          string    `json:"stack"`
	CreatedAt      time.Time `json:"created_at"`
	ServerVersion  string    `json:"server_version"`
	Bytes          int64     `json:"bytes"`
	Files          int64     `json:"files"`
	ManifestSHA256 string    `json:"manifest_sha256"`
}

// SnapshotResult is what `stack snapshot` reports.
type SnapshotResult struct {
	Snapshot
	Path string `json:"path"`
	// DowntimeMS is how long a running stack was stopped for the copy (0
	// when it was not running).
	DowntimeMS int64  `json:"downtime_ms"`
	Method     string `json:"method,omitempty"` // clone | copy_file_range | stream
	Restarted  bool   `json:"restarted"`
}

// A tree is one directory of a stack's data, by the name it has inside a
// snapshot.
type tree struct{ name, path string }

// trees are the directories the server writes: --data-dir, --hot-dir and
// every other directory extraFlags gave it (<x>-data in the stack's
// directory).
func (s *Spec) trees() []tree {
	out := []tree{{"data", s.DataDir()}, {"hot", s.HotDir()}}
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		if e.IsDir() && strings.HasSuffix(e.Name(), "-data") {
			out = append(out, tree{e.Name(), filepath.Join(s.dir, e.Name())})
		}
	}
	return out
}

// snapshotTrees are the trees a snapshot directory holds.
func snapshotTrees(dir string) []tree {
	var out []tree
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, tree{e.Name(), filepath.Join(dir, e.Name())})
		}
	}
	return out
}

func paths(ts []tree) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.path
	}
	return out
}

// SnapshotsDir is where the stack's snapshots live.
func (s *Spec) SnapshotsDir() string { return filepath.Join(s.dir, "snapshots") }

// hashCache keeps the hashes of the stack's files between snapshots: a
// second snapshot reads only what changed (on a file system that clones,
// reading is all a snapshot costs).
func (s *Spec) hashCache() *treecopy.HashCache {
	return treecopy.OpenHashCache(filepath.Join(s.SnapshotsDir(), ".hashes.json"))
}

// timeName is a snapshot's default name, and the tail of before-restore-.
const timeName = "20060102T150405Z"

// loamsSnapName matches the names loams gives: the UTC time, optionally
// after before-restore- and with a -N when the second was taken.
var loamsSnapName = regexp.MustCompile(`^(before-restore-)?[0-9]{8}T[0-9]{6}Z(-[0-9]{1,3})?$`)

// snapName checks a snapshot name: one a person gives follows the stack
// name pattern; the ones loams gives are times.
func snapName(n string) error {
	if config.StackName().MatchString(n) || loamsSnapName.MatchString(n) {
		return nil
	}
	return badSnapName(n)
}

func badSnapName(n string) error {
	return errs.New(errs.Usage, "use a lowercase letter, then up to 30 lowercase letters, digits or dashes (e.g. before-migration)",
		"invalid snapshot name %q", n).With("snapshot", n)
}

// snapshotDir is an existing snapshot of s, or snapshot_not_found.
func (s *Spec) snapshotDir(snap string) (string, error) {
	if err := snapName(snap); err != nil {
		return "", err
	}
	dir := filepath.Join(s.SnapshotsDir(), snap)
	if _, err := os.Stat(filepath.Join(dir, "snapshot.json")); err != nil {
		return "", errs.New(errs.SnapshotNotFound, "`loams stack snapshot list "+s.Name+"` lists its snapshots",
			"stack %q has no snapshot %q", s.Name, snap).With("name", s.Name).With("snapshot", snap).
			ForAgent("ask the user which snapshot to use (`loams stack snapshot list " + s.Name + "`)")
	}
	return dir, nil
}

// Snapshot copies the stack's data into snapshots/SNAP (snap "" is the
// UTC time). A running stack is stopped gracefully for the copy and
// started again: the server has no snapshot call of its own yet, and a
// copy of files it is writing is not a consistent one.
func (sv *Supervisor) Snapshot(ctx context.Context, name, snap string) (*SnapshotResult, error) {
	s, err := LoadTrusted(sv.Home, name)
	if err != nil {
		return nil, err
	}
	auto := snap == ""
	if auto {
		snap = sv.now().UTC().Format(timeName)
	} else if !config.StackName().MatchString(snap) {
		return nil, badSnapName(snap)
	}
	final, err := s.freeSnapName(snap, auto)
	if err != nil {
		return nil, err
	}
	need, err := treecopy.NeedFor(s.dir, paths(s.trees())...)
	if err != nil {
		return nil, err
	}
	if err := treecopy.CheckSpace(s.dir, need); err != nil {
		return nil, err
	}
	stage, err := treecopy.Stage(final)
	if err != nil {
		return nil, err
	}
	defer stage.Abort()
	res := &SnapshotResult{Path: final}
	// Only the copy happens while the stack is stopped: where it clones,
	// the files the cache does not know are hashed from the staged copy
	// after the stack is back (it is ours; the live data is not).
	var later *manifestLater
	cerr := sv.consistent(ctx, s, res, func() error {
		m, l, err := copyTrees(ctx, s.trees(), stage.Dir, s.hashCache())
		res.Method, later = string(m), l
		return err
	})
	if cerr != nil {
		return nil, cerr
	}
	entries, err := later.finish(ctx)
	if err != nil {
		return nil, err
	}
	meta, err := sealSnapshot(s, filepath.Base(final), stage.Dir, entries, sv.now())
	if err != nil {
		return nil, err
	}
	if err := stage.Commit(); err != nil {
		return nil, err
	}
	res.Snapshot = *meta
	return res, nil
}

// freeSnapName is the directory of a new snapshot: snapshot_exists when a
// person's name is taken; a time taken twice in one second gets -2, -3 …
func (s *Spec) freeSnapName(snap string, auto bool) (string, error) {
	final := filepath.Join(s.SnapshotsDir(), snap)
	for i := 2; auto && i < 1000 && exists(final); i++ {
		final = filepath.Join(s.SnapshotsDir(), fmt.Sprintf("%s-%d", snap, i))
	}
	if exists(final) {
		return "", errs.New(errs.SnapshotExists, "pick another --as, or delete it: `loams stack snapshot delete "+s.Name+" "+snap+" --yes`",
			"stack %q already has a snapshot %q", s.Name, snap).With("name", s.Name).With("snapshot", snap)
	}
	return final, nil
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// consistent runs copy with the stack stopped: a running stack is stopped
// gracefully under its lock, copied, and started again even when the copy
// failed or was interrupted (the person wants their stack back).
func (sv *Supervisor) consistent(ctx context.Context, s *Spec, res *SnapshotResult, copy func() error) error {
	unlock, err := lockFile(ctx, s.LockPath())
	if err != nil {
		return err
	}
	p, err := readPid(s.PidPath())
	if err != nil {
		unlock()
		return err
	}
	running := p.ours()
	began := time.Now()
	if running {
		if err := sv.stop(ctx, s, DefaultGrace); err != nil {
			unlock()
			return err
		}
	}
	err = copy()
	unlock()
	if running {
		_, serr := sv.Start(context.WithoutCancel(ctx), s.Name, DefaultWait)
		res.DowntimeMS = time.Since(began).Milliseconds()
		res.Restarted = serr == nil
		if err == nil {
			err = serr
		}
	}
	return err
}

// copyTrees copies each tree into dst/<its name>; with a hash cache it
// also returns the manifest of what it copied, to finish once the
// sources may change again (cloned files are hashed from the copy then).
func copyTrees(ctx context.Context, ts []tree, dst string, hash *treecopy.HashCache) (treecopy.Method, *manifestLater, error) {
	var worst treecopy.Method
	later := &manifestLater{cache: hash}
	for _, t := range ts {
		var m treecopy.Method
		var err error
		if hash != nil {
			var h *treecopy.Hashing
			m, h, err = treecopy.CopyHashedLater(ctx, t.path, filepath.Join(dst, t.name), hash)
			later.trees = append(later.trees, namedHashing{t.name, h})
		} else {
			m, err = treecopy.Copy(ctx, t.path, filepath.Join(dst, t.name))
		}
		if err != nil {
			return "", nil, err
		}
		if worst == "" || m == treecopy.Streamed || (m == treecopy.Range && worst == treecopy.Clone) {
			worst = m
		}
	}
	return worst, later, nil
}

// manifestLater is a copy's manifest, tree by tree, still to be hashed
// where the copy cloned.
type manifestLater struct {
	trees []namedHashing
	cache *treecopy.HashCache
}

type namedHashing struct {
	name string
	h    *treecopy.Hashing
}

// finish hashes what is left, saves the cache and returns the manifest,
// paths prefixed by tree.
func (l *manifestLater) finish(ctx context.Context) ([]treecopy.Entry, error) {
	var all []treecopy.Entry
	for _, t := range l.trees {
		entries, err := t.h.Finish(ctx)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			e.Path = t.name + "/" + e.Path
			all = append(all, e)
		}
	}
	return all, l.cache.Save()
}

// sealSnapshot writes manifest.json and snapshot.json into a filled
// snapshot directory.
func sealSnapshot(s *Spec, name, dir string, entries []treecopy.Entry, now time.Time) (*Snapshot, error) {
	data, sum := treecopy.Encode(entries)
	meta := &Snapshot{Name: name, Stack: s.Name, CreatedAt: now.UTC().Truncate(time.Second), ServerVersion: s.ServerVersion, ManifestSHA256: sum}
	for _, e := range entries {
		meta.Files++
		meta.Bytes += e.Size
	}
	if err := safefile.Write(filepath.Join(dir, "manifest.json"), data, 0o600); err != nil {
		return nil, err
	}
	js, _ := json.MarshalIndent(meta, "", "  ")
	return meta, safefile.Write(filepath.Join(dir, "snapshot.json"), append(js, '\n'), 0o600)
}
