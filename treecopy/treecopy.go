// Package treecopy copies directory trees for snapshots and clones: the
// filesystem's clone where it has one, else copy_file_range, else a
// streamed copy; symlinks as symlinks, never followed; special files
// refused; free space checked before the first byte. A copy is made in a
// staging directory that the caller renames into place (Stage), so an
// interrupted copy never leaves a half tree under its real name.
package treecopy

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// Stats is the size of a tree: bytes of its regular files, and its
// entries (files and symlinks; directories are not counted).
type Stats struct {
	Bytes int64 `json:"bytes"`
	Files int64 `json:"files"`

	sample string // a non-empty file, to ask whether the destination clones
}

// Need is how many bytes a copy of the tree into dir takes: none where
// the file system clones (the copy shares the blocks; one file is cloned
// to find out), else all of them.
func (st Stats) Need(dir string) int64 {
	if st.sample != "" && clones(st.sample, dir) {
		return 0
	}
	return st.Bytes
}

// NeedFor is what a copy of roots into dir takes (Need), without walking
// every file where the first one found shows that dir clones.
func NeedFor(dir string, roots ...string) (int64, error) {
	if sample := firstFile(roots); sample != "" && clones(sample, dir) {
		return 0, nil
	}
	st, err := Measure(roots...)
	return st.Bytes, err
}

// firstFile is a non-empty regular file below roots, found by walking only
// as far as the first one.
func firstFile(roots []string) string {
	found := ""
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.Type().IsRegular() {
				if fi, err := d.Info(); err == nil && fi.Size() > 0 {
					found = p
					return filepath.SkipAll
				}
			}
			return nil
		})
		if found != "" {
			break
		}
	}
	return found
}

// Method says how the file data of a copy was written; a copy that used
// several reports the slowest.
type Method string

const (
	Clone    Method = "clone"           // FICLONE: no data written, shared blocks
	Range    Method = "copy_file_range" // the kernel copies, no trip through loams
	Streamed Method = "stream"          // read and write
)

var methodRank = map[Method]int{"": 0, Clone: 1, Range: 2, Streamed: 3}

// Measure walks roots (those that do not exist count as empty) and
// refuses a tree with a special file in it before anything is copied.
func Measure(roots ...string) (Stats, error) {
	var st Stats
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root && errors.Is(err, fs.ErrNotExist) {
					return filepath.SkipAll
				}
				return err
			}
			switch t := d.Type(); {
			case t.IsDir():
			case t&fs.ModeSymlink != 0:
				st.Files++
			case t.IsRegular():
				fi, err := d.Info()
				if err != nil {
					return err
				}
				st.Bytes += fi.Size()
				st.Files++
				if st.sample == "" && fi.Size() > 0 {
					st.sample = p
				}
			default:
				return special(p, t)
			}
			return nil
		})
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// special refuses a FIFO, socket or device: copying one would block on it
// or duplicate a device node, and a server's data holds none.
func special(p string, t fs.FileMode) error {
	return errs.New(errs.Usage, "move "+p+" out of the stack's data (a server's data holds only files, directories and symlinks), then try again",
		"%s is %s; only files, directories and symlinks are copied", p, safefile.Kind(t)).With("path", p)
}

// CheckSpace fails with disk_full (exit 7) when the file system holding
// dir has fewer than need bytes free, naming both numbers.
func CheckSpace(dir string, need int64) error {
	free, ok := freeBytes(dir)
	if !ok || free >= need {
		return nil
	}
	return errs.New(errs.DiskFull, fmt.Sprintf("free at least %d bytes on the disk that holds %s (or delete old snapshots: `loams stack snapshot list`), then try again", need-free, dir),
		"copying needs %d bytes and the disk that holds %s has %d free", need, dir, free).
		With("path", dir).With("bytes_needed", need).With("bytes_free", free)
}

// workers copy files concurrently: small files cost syscalls, not
// bandwidth, and a second core hides their latency.
const workers = 4

// Copy copies the tree src into dst, which must not exist or be an empty
// directory (a Staging's), preserving modes and modification times. A src
// that does not exist copies nothing and makes no dst.
func Copy(ctx context.Context, src, dst string) (Method, error) {
	m, _, err := copyTree(ctx, src, dst, false, nil, nil)
	return m, err
}

// CopyHashed is Copy that also returns the tree's manifest (as Manifest
// would list dst): each file is hashed by the worker that copied it,
// while the data is in the page cache, so hashing overlaps the copy
// instead of reading the whole tree a second time. A file the cache
// (may be nil) knows unchanged is not read at all.
func CopyHashed(ctx context.Context, src, dst string, cache *HashCache) (Method, []Entry, error) {
	m, h, err := copyTree(ctx, src, dst, true, cache, nil)
	if err != nil {
		return "", nil, err
	}
	return m, h.entries, nil
}

func copyTree(ctx context.Context, src, dst string, hash bool, cache *HashCache, later func(Method) bool) (Method, *Hashing, error) {
	fi, err := os.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return "", &Hashing{cache: cache}, nil
	}
	if err != nil {
		return "", nil, err
	}
	if !fi.IsDir() {
		return "", nil, fmt.Errorf("%s is not a directory", src)
	}
	c := &copier{jobs: make(chan job, 64), hash: hash, cache: cache, later: later}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() { defer wg.Done(); c.work() }()
	}
	var dirs []job
	walkErr := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if e := c.firstErr(); e != nil {
			return e
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch t := d.Type(); {
		case t.IsDir():
			info, err := d.Info()
			if err != nil {
				return err
			}
			mkdir := os.Mkdir
			if rel == "." {
				mkdir = os.MkdirAll
			}
			if err := mkdir(to, 0o700); err != nil {
				return err
			}
			dirs = append(dirs, job{from: p, to: to, mode: info.Mode().Perm(), mtime: info.ModTime()})
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			if hash {
				c.add(Entry{Path: filepath.ToSlash(rel), Symlink: target})
			}
			return os.Symlink(target, to)
		case t.IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			idx := -1
			if hash {
				idx = c.add(Entry{Path: filepath.ToSlash(rel), Size: info.Size()})
			}
			c.jobs <- job{from: p, to: to, mode: info.Mode().Perm(), mtime: info.ModTime(), size: info.Size(), idx: idx, info: info}
		default:
			return special(p, t)
		}
		return nil
	})
	close(c.jobs)
	wg.Wait()
	if walkErr != nil {
		return "", nil, errs.FromOS(walkErr)
	}
	if err := c.firstErr(); err != nil {
		return "", nil, errs.FromOS(err)
	}
	// Directories last and deepest first: writing into a directory
	// changes its time, and a read-only one could not be filled.
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		if err := os.Chmod(d.to, d.mode); err != nil {
			return "", nil, err
		}
		_ = os.Chtimes(d.to, d.mtime, d.mtime)
	}
	return c.method(), &Hashing{entries: c.entries, pending: c.pending, cache: cache}, nil
}

// copyFile copies one regular file's data, mode and time.
func copyFile(j job) (Method, error) {
	in, err := os.Open(j.from)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.OpenFile(j.to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	m, err := copyData(out, in, j.size)
	if err == nil {
		err = stamp(out, j.mode, j.mtime)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return m, err
}
