package mcpserve

import (
	"strings"
	"testing"
	"time"
)

// The first answer waits until the signal handlers are installed, so a
// client holding an answer can count on SIGTERM stopping the server cleanly.
func TestFirstAnswerWaitsForSignalHandlers(t *testing.T) {
	t.Parallel()
	ready := make(chan struct{})
	p := startServer(t, inProcess(func(o *Options) { o.SignalsReady = ready }))
	p.send(initLine)
	// An absence: nothing marks "the answer is ready and held back", so
	// the test gives the server a moment to answer too early; a server
	// that ignored SignalsReady answers initialize within a millisecond.
	select {
	case l := <-p.lines:
		t.Fatalf("answered before the signal handlers were ready: %.100s", l)
	case <-time.After(200 * time.Millisecond):
	}
	close(ready)
	if l := p.next(); !strings.Contains(l, `"id":1`) {
		t.Fatalf("once the handlers were ready: %.100s", l)
	}
	if _, code := p.wait(); code != 0 {
		t.Fatalf("exit %d (%v)", code, p.err)
	}
}
