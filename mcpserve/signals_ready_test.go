package mcpserve

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/testbin"
)

// The first answer waits until the signal handlers are installed, so a
// client holding an answer can count on SIGTERM stopping the server cleanly.
func TestFirstAnswerWaitsForSignalHandlers(t *testing.T) {
	t.Parallel()
	ready := make(chan struct{})
	srv, closeLog := New(Options{Home: home.Home{Dir: t.TempDir()}, Getenv: func(string) string { return "" }, SignalsReady: ready})
	defer closeLog()
	in, feed := io.Pipe()
	out := &testbin.Buffer{}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), in, out) }()
	go feed.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"))
	time.Sleep(200 * time.Millisecond)
	if out.String() != "" {
		t.Fatalf("answered before the signal handlers were ready: %.100s", out.String())
	}
	close(ready)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), `"id":1`) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(out.String(), `"id":1`) {
		t.Fatal("no answer once the handlers were ready")
	}
	feed.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
