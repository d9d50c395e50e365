package treecopy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"loams.dev/cli/internal/filehash"
)

// Entry is one file of a manifest: a regular file's size and SHA-256, or
// a symlink's target.
type Entry struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256,omitempty"`
	Symlink string `json:"symlink,omitempty"`
}

// Manifest lists every file and symlink below root in walk (lexical)
// order, paths relative to root with slashes. Files are hashed
// concurrently: hashing, not walking, is what a snapshot waits for.
func Manifest(root string) ([]Entry, error) {
	var entries []Entry
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipAll
			}
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch t := d.Type(); {
		case t.IsDir():
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			entries = append(entries, Entry{Path: rel, Symlink: target})
		case t.IsRegular():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			entries = append(entries, Entry{Path: rel, Size: fi.Size()})
		default:
			return special(p, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	idx := make(chan int)
	errc := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				sum, err := filehash.SHA256(filepath.Join(root, filepath.FromSlash(entries[i].Path)))
				if err != nil {
					select {
					case errc <- err:
					default:
					}
					continue
				}
				entries[i].SHA256 = sum
			}
		}()
	}
	for i := range entries {
		if entries[i].Symlink == "" {
			idx <- i
		}
	}
	close(idx)
	wg.Wait()
	select {
	case err := <-errc:
		return nil, err
	default:
	}
	return entries, nil
}

// Encode is a manifest's canonical bytes (one JSON document) and their
// SHA-256, the manifest_sha256 of snapshot.json.
func Encode(entries []Entry) ([]byte, string) {
	if entries == nil {
		entries = []Entry{}
	}
	data, _ := json.MarshalIndent(map[string]any{"files": entries}, "", " ")
	data = append(data, '\n')
	sum := sha256.Sum256(data)
	return data, hex.EncodeToString(sum[:])
}
