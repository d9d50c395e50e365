package treecopy

import (
	"context"
	"sync"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/filehash"
)

// Hashing is the manifest of a copy whose cloned files are hashed after
// the copy: a clone reads no data, so hashing those files while the
// source is held still (a stopped stack) would make the pause as long as
// the bytes. Finish hashes them from the copy, which only the caller
// writes, and fills the cache under the source's identity as the copy saw
// it.
type Hashing struct {
	entries []Entry
	pending []job
	cache   *HashCache
}

// CopyHashedLater is CopyHashed, except that a file whose data was cloned
// and that the cache does not know is left for Finish. A file whose data
// passed through the kernel or loams is hashed during the copy, as
// CopyHashed does: its bytes are in the page cache then.
func CopyHashedLater(ctx context.Context, src, dst string, cache *HashCache) (Method, *Hashing, error) {
	return copyTree(ctx, src, dst, true, cache, laterWhen)
}

// laterWhen picks the files hashed after the copy; tests widen it to
// every file, to take the deferred path on file systems that do not clone.
var laterWhen = func(m Method) bool { return m == Clone }

// Pending is how many files Finish has still to read.
func (h *Hashing) Pending() int { return len(h.pending) }

// Finish hashes the files left for later, from their copies, and returns
// the manifest (as Manifest would list the copy). The copy must not have
// changed since CopyHashedLater.
func (h *Hashing) Finish(ctx context.Context) ([]Entry, error) {
	jobs := make(chan job)
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				sum, err := filehash.SHA256(j.to)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				h.entries[j.idx].SHA256 = sum
				mu.Unlock()
				if err == nil {
					h.cache.remember(j.from, j.info, sum)
				}
			}
		}()
	}
	for _, j := range h.pending {
		if ctx.Err() != nil {
			break
		}
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if first != nil {
		return nil, errs.FromOS(first)
	}
	h.pending = nil
	return h.entries, nil
}
