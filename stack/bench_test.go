package stack_test

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/stack"
)

// The supervisor's cost is what it adds to the server's own start: run
//
//	go test ./stack -run '^$' -bench . -benchtime 20x
//
// and compare BenchmarkStartStop with BenchmarkServerAlone, which runs the
// same stand-in with the same argv, polls /ready itself and sends SIGTERM.

func BenchmarkStartStop(b *testing.B) {
	f := newFixture(b)
	if _, err := f.create(b, "bench", false, "qdrant"); err != nil {
		b.Fatal(err)
	}
	startStopLoop(b, f)
}

// BenchmarkReadyLag is how late `stack start` reports a stack ready: the
// stand-in logs when its /ready turns 200 (0.1 s, 1.5 s or 10 s after it
// starts), and lag-ms is the time from then until Start returns (the
// target is under 15 ms, however long the server takes). Run
//
//	go test ./stack -run '^$' -bench ReadyLag -benchtime 5x
func BenchmarkReadyLag(b *testing.B) {
	for _, delay := range []time.Duration{100 * time.Millisecond, 1500 * time.Millisecond, 10 * time.Second} {
		b.Run(delay.String(), func(b *testing.B) {
			f := newFixture(b, "TESTSERVER_READY_DELAY="+delay.String())
			d, err := f.create(b, "bench", false, "qdrant")
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var total, worst time.Duration
			n := 0
			for b.Loop() {
				if _, err := f.sv.Start(ctx, "bench", 30*time.Second); err != nil {
					b.Fatal(err)
				}
				lag := time.Since(readyFrom(b, d.LogPath))
				total, worst, n = total+lag, max(worst, lag), n+1
				if _, err := f.sv.Stop(ctx, "bench", 5*time.Second); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total)/float64(n)/float64(time.Millisecond), "lag-ms")
			b.ReportMetric(float64(worst)/float64(time.Millisecond), "max-lag-ms")
		})
	}
}

// readyFrom is the last "ready from" time the stand-in logged.
func readyFrom(b *testing.B, log string) time.Time {
	lines, err := stack.Tail(log, 20)
	if err != nil {
		b.Fatal(err)
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(lines[i], "loams stand-in ready from "); ok {
			at, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				b.Fatal(err)
			}
			return at
		}
	}
	b.Fatalf("no ready line in %s: %q", log, lines)
	return time.Time{}
}

// startStopLoop starts and stops the fixture's stack "bench" b.N times.
func startStopLoop(b *testing.B, f *fixture) {
	ctx := context.Background()
	for b.Loop() {
		if _, err := f.sv.Start(ctx, "bench", 30*time.Second); err != nil {
			b.Fatal(err)
		}
		if _, err := f.sv.Stop(ctx, "bench", 5*time.Second); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkServerAlone(b *testing.B) {
	f := newFixture(b)
	d, err := f.create(b, "bench", false, "qdrant")
	if err != nil {
		b.Fatal(err)
	}
	argv, env, err := f.sv.Command(context.Background(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	ready := d.Engines[0].Endpoints["http"] + "/ready"
	for b.Loop() {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		for {
			resp, err := http.Get(ready)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}
}

// BenchmarkDescribe8 is `loams stack describe` of a running stack in a
// home that holds the most stacks allowed.
func BenchmarkDescribe8(b *testing.B) {
	f := newFixture(b)
	for i := range stack.MaxStacks {
		if _, err := f.create(b, fmt.Sprintf("s%d", i), i == 0, "qdrant"); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if d, err := f.sv.Describe(context.Background(), "s0"); err != nil || d.State != stack.Running {
			b.Fatalf("describe: %v %+v", err, d)
		}
	}
}

// BenchmarkStatus8 is `loams stack list` over the most stacks a home may
// have, half of them running: what stack_status costs an agent.
func BenchmarkStatus8(b *testing.B) {
	f := newFixture(b)
	for i := range stack.MaxStacks {
		if _, err := f.create(b, fmt.Sprintf("s%d", i), i%2 == 0, "qdrant"); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		ds, err := f.sv.Status(context.Background(), "")
		if err != nil || len(ds) != stack.MaxStacks {
			b.Fatalf("status: %v, %d stacks", err, len(ds))
		}
	}
}
