package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/redact"
	"loams.dev/cli/internal/testkit/testbin"
)

// A server that prints its key in two writes, a poll apart: --follow
// must not hand the redactor two halves that each look harmless. The
// last line, still without its newline at Ctrl-C, is printed too.
func TestFollowRedactsAKeySplitAcrossWrites(t *testing.T) {
	t.Parallel()
	const key = "loams_abcdef012345_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef"
	path := filepath.Join(t.TempDir(), "server.log")
	if err := os.WriteFile(path, []byte("old line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	log, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	var out testbin.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	idle := make(chan struct{}, 100) // one per time followFile found nothing more
	go func() {
		done <- followFileEvery(ctx, path, redact.Writer{W: &out}, 5*time.Millisecond, func() {
			select { // never block the follower: a full channel only loses counts
			case idle <- struct{}{}:
			default:
			}
		})
	}()
	// drain forgets the polls so far; polls waits for n more at the end of the file.
	drain := func() {
		for len(idle) > 0 {
			<-idle
		}
	}
	polls := func(n int) {
		for range n {
			<-idle
		}
	}

	waitFor := func(what string, ok func(string) bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(out.String()); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s; printed %q", what, out.String())
			}
		}
	}
	polls(1) // followFile has reached the end
	log.WriteString("starting\napi key: " + key[:20])
	waitFor("the first line", func(s string) bool { return strings.Contains(s, "starting\n") })
	drain()
	polls(2) // two polls at the end see only the first half of the key
	if strings.Contains(out.String(), "api key") {
		t.Fatalf("a line without its end was printed: %q", out.String())
	}
	log.WriteString(key[20:] + "\nready\nlast without newline")
	waitFor("the key's line", func(s string) bool { return strings.Contains(s, "ready\n") })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.Contains(got, key[:20]) || strings.Contains(got, key[20:]) || strings.Contains(got, "old line") {
		t.Fatalf("printed %q", got)
	}
	if want := "starting\napi key: " + redact.Placeholder + "\nready\nlast without newline"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}
