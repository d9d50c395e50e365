package treecopy

import (
	"io/fs"
	"sync"
	"sync/atomic"
	"time"

	"loams.dev/cli/internal/filehash"
)

type job struct {
	from, to string
	mode     fs.FileMode
	mtime    time.Time
	size     int64
	idx      int // its manifest entry, -1 when not hashing
	info     fs.FileInfo
}

type copier struct {
	jobs  chan job
	hash  bool
	cache *HashCache
	// later says which files are hashed after the copy, from the copy:
	// those whose data was cloned (nil: none). pending are those jobs.
	later   func(Method) bool
	pending []job
	// entries is the manifest in walk order: the walk appends, each
	// worker writes the SHA-256 of its own file's entry; mu guards both.
	entries []Entry
	mu      sync.Mutex
	err     error
	worst   atomic.Int32
}

func (c *copier) work() {
	for j := range c.jobs {
		if c.firstErr() != nil {
			continue // drain: the walk stops at the next entry
		}
		m, err := copyFile(j)
		if err == nil && j.idx >= 0 {
			err = c.sum(j, m)
		}
		if err != nil {
			c.mu.Lock()
			if c.err == nil {
				c.err = err
			}
			c.mu.Unlock()
			continue
		}
		for r := int32(methodRank[m]); ; {
			old := c.worst.Load()
			if old >= r || c.worst.CompareAndSwap(old, r) {
				break
			}
		}
	}
}

// sum fills a copied file's manifest entry: from the cache, else by
// reading the source while its bytes are fresh from the copy, else (a
// clone, which read nothing) later from the copy, so that the source's
// owner can have it back first.
func (c *copier) sum(j job, m Method) error {
	sum, ok := c.cache.sum(j.from, j.info)
	if !ok && c.later != nil && c.later(m) {
		c.mu.Lock()
		c.pending = append(c.pending, j)
		c.mu.Unlock()
		return nil
	}
	if !ok {
		var err error
		if sum, err = filehash.SHA256(j.from); err != nil {
			return err
		}
		c.cache.remember(j.from, j.info, sum)
	}
	c.setSum(j.idx, sum)
	return nil
}

func (c *copier) add(e Entry) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = append(c.entries, e)
	return len(c.entries) - 1
}

// setSum records a file's hash while the walk may still be appending.
func (c *copier) setSum(i int, sum string) {
	c.mu.Lock()
	c.entries[i].SHA256 = sum
	c.mu.Unlock()
}

func (c *copier) firstErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *copier) method() Method {
	r := int(c.worst.Load())
	for m, n := range methodRank {
		if n == r {
			return m
		}
	}
	return ""
}
