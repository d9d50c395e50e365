package mcpserve

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/home"
)

// On a signal (ctx cancelled) a call that honours its context answers
// "interrupted", one that ignores it is answered by the front after the
// grace period, and Serve returns within the spec's 2 s.
func TestShutdownAnswersEveryCall(t *testing.T) {
	t.Parallel()
	type none struct{}
	release := make(chan struct{})
	defer close(release)
	polite := newTool(toolSpec[none, none]{Name: "test_polite", Title: "P", Description: "Waits for its context.",
		Run: func(ctx context.Context, _ none) (none, error) { <-ctx.Done(); return none{}, ctx.Err() }})
	stubborn := newTool(toolSpec[none, none]{Name: "test_stubborn", Title: "S", Description: "Ignores its context.",
		Run: func(context.Context, none) (none, error) { <-release; return none{}, nil }})
	srv, closeLog := New(Options{Home: home.Home{Dir: t.TempDir()}, Getenv: func(string) string { return "" },
		Build: buildinfo.Info{Version: "0.1.0"}, extraTools: []tool{polite, stubborn}})
	defer closeLog()
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, inR, outW); outW.Close() }()
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	<-lines
	_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_polite"}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_stubborn"}}`+"\n")
	time.Sleep(200 * time.Millisecond)
	began := time.Now()
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the signal")
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("shutdown took %s", took)
	}
	var got []string
	for l := range lines {
		got = append(got, l)
	}
	all := strings.Join(got, "\n")
	if len(got) != 2 || !strings.Contains(all, `"id":1,"result"`) || !strings.Contains(all, "interrupted") ||
		!strings.Contains(all, `"id":2,"error":{"code":-32603`) {
		t.Errorf("want an interrupted result for 1 and -32603 for 2, got:\n%s", all)
	}
}
