package mcpserve

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
)

// On a signal (ctx cancelled) a call that honours its context answers
// "interrupted", one that ignores it is answered by the front after the
// grace period, and Serve returns within the spec's 2 s.
func TestShutdownAnswersEveryCall(t *testing.T) {
	t.Parallel()
	type none struct{}
	release, started := make(chan struct{}), make(chan string, 2)
	defer close(release)
	polite := newTool(toolSpec[none, none]{Name: "test_polite", Title: "P", Description: "Waits for its context.",
		Run: func(ctx context.Context, _ none) (none, error) {
			started <- "polite"
			<-ctx.Done()
			return none{}, ctx.Err()
		}})
	stubborn := newTool(toolSpec[none, none]{Name: "test_stubborn", Title: "S", Description: "Ignores its context.",
		Run: func(context.Context, none) (none, error) { started <- "stubborn"; <-release; return none{}, nil }})
	p := startServer(t, withTools(polite, stubborn))
	p.send(initLine)
	p.next()
	p.send(initDone,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_polite"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_stubborn"}}`)
	<-started // both calls are running: the signal finds them in flight
	<-started
	began := time.Now()
	p.kill(syscall.SIGTERM)
	got, code := p.waitExit()
	if code != 0 {
		t.Fatalf("Serve: exit %d (%v)", code, p.err)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("shutdown took %s", took)
	}
	all := strings.Join(got, "\n")
	if len(got) != 2 || !strings.Contains(all, `"id":2,"result"`) || !strings.Contains(all, "interrupted") ||
		!strings.Contains(all, `"id":3,"error":{"code":-32603`) {
		t.Errorf("want an interrupted result for 2 and -32603 for 3, got:\n%s", all)
	}
}
