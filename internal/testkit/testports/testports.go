// Package testports hands out blocks of 100 loopback ports that no other
// test of the same run is using: the tests of several packages run at
// once, each starting stand-in servers, and a fixed --port-base (or the
// documented 8080) in two of them at once makes one server lose its bind.
//
// A claim is a file named for the block in a directory every test process
// of the user shares, naming its owner: a directory that lives exactly as
// long as the claim is wanted (a test's temp dir, a LOAMS_HOME). The block
// is free again once its owner is gone, so nothing has to be released and a
// killed run leaks nothing for long. One file lock makes the claims of all
// processes one at a time.
//
// The tests' builds of loams claim through here when they choose a stack's
// ports (stack/seam_loamstest.go); tests that pass --port-base call Block.
package testports

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"loams.dev/cli/internal/filelock"
)

const (
	// Blocks from 10000 up to below 32768, where Linux starts handing out
	// ports to outgoing connections (which would take a listener's port at
	// random). Skipped: the blocks holding a documented port (13306, 15432)
	// and loams's own range, 20000-29999, where the in-process tests of the
	// allocator and a developer's own stacks take theirs.
	first = 10000
	last  = 32600
	step  = 100
	// stale is how long a claim whose owner still exists may stand: longer
	// than any test, so only what a killed run left behind expires.
	stale = 3 * time.Hour
)

// dir is where the claims are: one per user, so two users' runs on one
// machine cannot lock each other out (their ports are still checked free).
func dir() string {
	return filepath.Join(os.TempDir(), "loams-test-ports-"+strconv.Itoa(os.Getuid()))
}

// Claim takes the first block that no live owner holds and whose 100 ports
// can all be bound now, records it for owner, and returns its base.
func Claim(owner string) (int, error) {
	owner, err := filepath.Abs(owner)
	if err != nil {
		return 0, err
	}
	d := dir()
	if err := os.MkdirAll(d, 0o700); err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	unlock, err := filelock.Lock(ctx, filepath.Join(d, "lock"))
	if err != nil {
		return 0, fmt.Errorf("testports: %w", err)
	}
	defer unlock()
	for base := first; base <= last; base += step {
		if skipped(base) || held(filepath.Join(d, strconv.Itoa(base))) || !free(base) {
			continue
		}
		if err := os.WriteFile(filepath.Join(d, strconv.Itoa(base)), []byte(owner+"\n"), 0o600); err != nil {
			return 0, err
		}
		return base, nil
	}
	return 0, errors.New("testports: every block of ports from 10000 to 32699 (but 20000-29999) is claimed or in use")
}

// skipped is a block no test claims (see first).
func skipped(base int) bool {
	return base == 13300 || base == 15400 || base >= 20000 && base < 30000
}

// held reports whether the claim file names an owner that still exists
// and is younger than stale.
func held(claim string) bool {
	fi, err := os.Stat(claim)
	if err != nil || time.Since(fi.ModTime()) > stale {
		return false
	}
	b, err := os.ReadFile(claim)
	if err != nil {
		return false
	}
	_, err = os.Stat(strings.TrimSpace(string(b)))
	return err == nil
}

// free reports whether every port of the block can be bound on loopback now.
func free(base int) bool {
	for p := base; p < base+step; p++ {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			return false
		}
		l.Close()
	}
	return true
}

// T is the part of testing.TB that Block uses; the tests' builds of loams
// link this package, and they should not link package testing.
type T interface {
	Helper()
	TempDir() string
	Fatal(args ...any)
}

// Block is a block of ports for one test's --port-base, its own until the
// test ends (its temp dir goes).
func Block(t T) int {
	t.Helper()
	base, err := Claim(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return base
}
