package stack_test

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
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

// BenchmarkStartBeyondReady: the stand-in becomes ready 100 ms after it
// starts; overhead-ms is what start+stop costs beyond that delay.
func BenchmarkStartBeyondReady(b *testing.B) {
	const delay = 100 * time.Millisecond
	f := newFixture(b, "TESTSERVER_READY_DELAY="+delay.String())
	if _, err := f.create(b, "bench", false, "qdrant"); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	startStopLoop(b, f)
	per := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(float64(per-delay)/float64(time.Millisecond), "overhead-ms")
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
