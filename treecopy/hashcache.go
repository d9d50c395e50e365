package treecopy

import (
	"encoding/json"
	"io/fs"
	"os"
	"sync"
	"time"

	"loams.dev/cli/internal/safefile"
)

// HashCache remembers the SHA-256 of files by identity (inode, size,
// mtime, ctime), as git's index does, so a snapshot of data that did not
// change since the last one does not read it all again: on a file system
// that clones, hashing is all a snapshot costs. A file's ctime moves on
// every write and cannot be set back, and an entry is trusted only when
// that ctime was well before hashing began (a write in the same clock
// tick as the recorded one could not be told apart).
type HashCache struct {
	path  string
	begun time.Time
	mu    sync.Mutex
	old   map[string]cached
	seen  map[string]cached
}

type cached struct {
	Ino    uint64 `json:"ino"`
	Size   int64  `json:"size"`
	Mtime  int64  `json:"mtime_ns"`
	Ctime  int64  `json:"ctime_ns"`
	SHA256 string `json:"sha256"`
	Begun  int64  `json:"begun_ns"`
}

// racyMargin is how long before hashing began a file must have last
// changed to be cached: far above any kernel's timestamp tick.
const racyMargin = 100 * time.Millisecond

// OpenHashCache reads the cache at path (missing or unreadable: empty).
func OpenHashCache(path string) *HashCache {
	h := &HashCache{path: path, begun: time.Now(), old: map[string]cached{}, seen: map[string]cached{}}
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &h.old)
	}
	return h
}

// sum is the cached hash of the file at p, if it is unchanged.
func (h *HashCache) sum(p string, fi fs.FileInfo) (string, bool) {
	if h == nil {
		return "", false
	}
	id, ok := identity(fi)
	if !ok {
		return "", false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.old[p]
	if !ok || c.Ino != id.Ino || c.Size != fi.Size() || c.Mtime != id.Mtime || c.Ctime != id.Ctime ||
		c.Ctime > c.Begun-racyMargin.Nanoseconds() {
		return "", false
	}
	h.seen[p] = c
	return c.SHA256, true
}

// remember records the hash of the file at p, as stat saw it before.
func (h *HashCache) remember(p string, fi fs.FileInfo, sum string) {
	if h == nil {
		return
	}
	if id, ok := identity(fi); ok {
		id.Size, id.SHA256, id.Begun = fi.Size(), sum, h.begun.UnixNano()
		h.mu.Lock()
		h.seen[p] = id
		h.mu.Unlock()
	}
}

// Save writes the files seen this time (files gone since drop out).
func (h *HashCache) Save() error {
	if h == nil {
		return nil
	}
	data, err := json.Marshal(h.seen)
	if err != nil {
		return err
	}
	return safefile.Write(h.path, data, 0o600)
}
