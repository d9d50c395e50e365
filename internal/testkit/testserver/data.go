package main

import (
	"crypto/sha256"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// seedData gives a stack real data to copy, like the server's own first
// start: a catalog, segments of a few hundred KiB, a symlink to the
// current segment, and hot-tier blocks. Files that exist are left alone,
// so a snapshot, restore or clone is what decides their bytes.
func seedData(dirs map[string]string) {
	seed := map[string][]string{
		"--data-dir":       {"catalog.json", "segments/000001.seg", "segments/000002.seg", "wal/000001.log"},
		"--hot-dir":        {"cache/0001.blk", "cache/0002.blk"},
		"--graph-data-dir": {"graph/nodes.bin"},
	}
	for flag, files := range seed {
		dir := dirs[flag]
		if dir == "" {
			continue
		}
		for _, f := range files {
			p := filepath.Join(dir, f)
			if _, err := os.Lstat(p); err == nil {
				continue
			}
			_ = os.MkdirAll(filepath.Dir(p), 0o700)
			_ = os.WriteFile(p, pseudo(f, 64<<10+len(f)*4099), 0o600)
		}
		if flag == "--data-dir" {
			_ = os.Symlink("segments/000002.seg", filepath.Join(dir, "current"))
		}
	}
}

// pseudo is n deterministic bytes named by seed.
func pseudo(seed string, n int) []byte {
	out := make([]byte, 0, n+32)
	sum := sha256.Sum256([]byte(seed))
	for len(out) < n {
		out = append(out, sum[:]...)
		sum = sha256.Sum256(sum[:])
	}
	return out[:n]
}

// putHandler is POST /testserver/put?dir=data|hot&path=REL: the body
// becomes the file, written by the server process as a migration would.
func putHandler(dirs map[string]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		root := dirs["--"+r.URL.Query().Get("dir")+"-dir"]
		rel := filepath.Clean(r.URL.Query().Get("path"))
		if r.Method != http.MethodPost || root == "" || rel == "." || filepath.IsAbs(rel) || strings.HasPrefix(rel, "..") {
			http.Error(w, "POST ?dir=data|hot&path=REL", http.StatusBadRequest)
			return
		}
		p := filepath.Join(root, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o700)
		data, _ := io.ReadAll(r.Body)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}
