package testports

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Claims made at once for live owners are all different blocks, every
// port of which could be bound when it was handed out.
func TestClaimsOfLiveOwnersDiffer(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			base, err := Claim(t.TempDir())
			mu.Lock()
			defer mu.Unlock()
			if err != nil || seen[base] || base < first || base > last || base%step != 0 || skipped(base) {
				t.Errorf("claim %d (%v), seen before %v", base, err, seen[base])
			}
			seen[base] = true
		})
	}
	wg.Wait()
}

// A claim stands while its owner exists and is young; a removed owner or
// a claim older than any run frees the block.
func TestClaimEndsWithItsOwner(t *testing.T) {
	owner := t.TempDir()
	claim := filepath.Join(t.TempDir(), "12300")
	if err := os.WriteFile(claim, []byte(owner+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !held(claim) {
		t.Fatal("a live owner's claim is not held")
	}
	old := time.Now().Add(-stale - time.Minute)
	if err := os.Chtimes(claim, old, old); err != nil {
		t.Fatal(err)
	}
	if held(claim) {
		t.Error("a claim older than any run is still held")
	}
	if err := os.Chtimes(claim, time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(owner); err != nil {
		t.Fatal(err)
	}
	if held(claim) {
		t.Error("a claim whose owner is gone is still held")
	}
	if held(filepath.Join(t.TempDir(), "absent")) {
		t.Error("a block nobody claimed is held")
	}
}

// A block with one port bound by someone else is not free.
func TestABoundPortMakesItsBlockBusy(t *testing.T) {
	base := Block(t)
	if !free(base) {
		t.Skipf("block %d was taken by another process since it was claimed", base)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+57))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if free(base) {
		t.Errorf("block %d is free with port %d bound", base, base+57)
	}
}
