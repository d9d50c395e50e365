package stack_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// Issue 28: the readiness probe carries the stack's key. A server whose
// /ready wants it is running (not "starting" for the whole wait), in
// start and in describe.
func TestReadyProbeCarriesTheKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_READY_KEY=1")
	d, err := f.create(t, "keyed", true)
	if err != nil || d.State != stack.Running {
		t.Fatalf("create: %v %+v", err, d)
	}
	if d, err := f.sv.Describe(context.Background(), "keyed"); err != nil || d.State != stack.Running {
		t.Fatalf("describe: %v %+v", err, d)
	}
}

// A 401 from /ready is said at once, not after the wait: another key
// will not appear by waiting.
func TestReadyRefusingTheKeyIsReportedAtOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_READY_KEY=another-key")
	if _, err := f.create(t, "refused", false); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := f.sv.Start(context.Background(), "refused", 20*time.Second)
	e := errs.As(err)
	if e.Code != errs.Unauthenticated || !strings.Contains(e.Message, "refused") || e.Details["name"] != "refused" {
		t.Fatalf("want unauthenticated naming the stack, got %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("a refused key waited %s", time.Since(start))
	}
}
