package filelock

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// The one lock stack, update and agents wait on: a second taker waits
// while the first holds it, gives up when its ctx ends, and gets it once
// the first lets go.
func TestLockWaitsAndEndsWithCtx(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	unlock, err := Lock(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second Lock while held = %v, want context.DeadlineExceeded", err)
	}

	got := make(chan error, 1)
	go func() {
		u, err := Lock(context.Background(), path)
		if err == nil {
			u()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("second Lock returned %v while the first still held it", err)
	case <-time.After(20 * time.Millisecond):
	}
	unlock()
	if err := <-got; err != nil {
		t.Fatalf("Lock after the first let go: %v", err)
	}
}
