package stack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/internal/testkit/testports"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// TestMain fails the run when a process a test started outlives it.
func TestMain(m *testing.M) { os.Exit(testbin.Main(m)) }

// portBase is a block of ports of the test's own: parallel tests (and the
// other packages' tests, which run at the same time) never race for the
// same ports. The allocator itself is tested separately.
func portBase(t testports.T) int { return testports.Block(t) }

type fixture struct {
	sv    *stack.Supervisor
	store secret.Store
	bin   string
}

// newFixture is a supervisor over a temp LOAMS_HOME with the stand-in server;
// env are TESTSERVER_* knobs, passed through the CLI's environment as the
// real server would get them.
func newFixture(t testing.TB, env ...string) *fixture {
	t.Helper()
	h := home.Home{Dir: t.TempDir()}
	bin := testbin.Build(t, "./internal/testkit/testserver")
	if len(env) > 0 { // a wrapper script bakes the knobs in, since tests share one process environment
		wrapper := filepath.Join(t.TempDir(), "loams-server")
		script := "#!/bin/sh\nexport " + strings.Join(env, " ") + "\nexec " + bin + " \"$@\"\n"
		if err := testbin.WriteExecutable(wrapper, []byte(script)); err != nil {
			t.Fatal(err)
		}
		bin = wrapper
	}
	store := secret.NewMemory()
	sv := &stack.Supervisor{Home: h, Secrets: func(context.Context) (secret.Store, error) { return store, nil },
		Getenv: func(string) string { return "" }, CreatedBy: "loams test"}
	f := &fixture{sv: sv, store: store, bin: bin}
	t.Cleanup(func() {
		names, _ := stack.List(h)
		for _, n := range names {
			_, _ = sv.Stop(context.Background(), n, 2*time.Second)
		}
	})
	return f
}

func (f *fixture) create(t testing.TB, name string, start bool, engines ...string) (*stack.Description, error) {
	t.Helper()
	return f.sv.Create(context.Background(), stack.CreateOptions{Name: name, Engines: engines, ServerBinary: f.bin,
		PortBase: portBase(t), Start: start, Wait: 30 * time.Second})
}

func code(err error) errs.Code {
	if e, ok := err.(*errs.Error); ok {
		return e.Code
	}
	return ""
}

func TestLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	d, err := f.create(t, "dev", true)
	if err != nil {
		t.Fatal(err)
	}
	if d.State != stack.Running || d.PID == nil {
		t.Fatalf("after create: %+v", d)
	}
	key, err := f.store.Get(ctx, "dev")
	if err != nil || !strings.HasPrefix(key.Reveal(), "loams_") {
		t.Fatalf("create must store a key: %v", err)
	}
	log, _ := os.ReadFile(d.LogPath)
	if !strings.Contains(string(log), "api key set") || strings.Contains(string(log), key.Reveal()) {
		t.Errorf("the server must get LOAMS_API_KEY (and never log it): %s", log)
	}
	again, err := f.sv.Start(ctx, "dev", 0)
	if err != nil || *again.PID != *d.PID {
		t.Fatalf("start of a running stack must return it as is: %v %+v", err, again)
	}
	if _, err := f.create(t, "dev", false); code(err) != errs.StackExists {
		t.Errorf("second create: %v", err)
	}
	stopped, err := f.sv.Stop(ctx, "dev", 10*time.Second)
	if err != nil || stopped.State != stack.Stopped {
		t.Fatalf("stop: %v %+v", err, stopped)
	}
	if _, err := f.sv.Stop(ctx, "dev", time.Second); err != nil {
		t.Errorf("stopping a stopped stack must succeed: %v", err)
	}
	res, err := f.sv.Delete(ctx, "dev", true)
	if err != nil || res.KeptData == "" {
		t.Fatalf("delete: %v %+v", err, res)
	}
	if _, err := f.store.Get(ctx, "dev"); err != secret.ErrNotFound {
		t.Errorf("delete must remove the key: %v", err)
	}
	if _, err := f.sv.Describe(ctx, "dev"); code(err) != errs.StackNotFound {
		t.Errorf("describe after delete: %v", err)
	}
}

// The argv the CLI builds, read back from what the stand-in received.
func TestServerCommandLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		engines []string
		want    []string // flags that must appear
		absent  []string
	}{
		{nil, []string{"--listen", "--flight-sql-listen", "--mcp-listen", "--qdrant-listen", "--qdrant-grpc-listen", "--es-listen", "--no-durable", "--no-live"}, []string{"--pg-listen", "--no-es"}},
		{[]string{"qdrant"}, []string{"--listen", "--qdrant-listen", "--no-flight-sql", "--no-es", "--no-mcp", "--no-durable"}, []string{"--es-listen"}},
		{[]string{"elasticsearch", "es", "pg", "durable"}, []string{"--es-listen", "--pg-listen", "--durable-listen", "--no-qdrant"}, []string{"--no-durable", "--qdrant-listen"}},
	} {
		f := newFixture(t)
		d, err := f.create(t, "argv", true, tc.engines...)
		if err != nil {
			t.Fatal(err)
		}
		var argv []string
		data, _ := os.ReadFile(filepath.Join(d.DataDir, "argv.json"))
		if err := json.Unmarshal(data, &argv); err != nil {
			t.Fatal(err)
		}
		if argv[1] != "dev" || argv[2] != "--data-dir" || !filepath.IsAbs(argv[3]) || argv[len(argv)-2] != "--hot-dir" || !filepath.IsAbs(argv[len(argv)-1]) {
			t.Errorf("argv shape: %v", argv)
		}
		for i, a := range argv {
			if strings.HasSuffix(a, "-listen") || a == "--listen" {
				if !strings.HasPrefix(argv[i+1], "127.0.0.1:") {
					t.Errorf("%s %s: every address must be loopback", a, argv[i+1])
				}
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(argv, w) {
				t.Errorf("engines %v: %s missing from %v", tc.engines, w, argv)
			}
		}
		for _, a := range tc.absent {
			if slices.Contains(argv, a) {
				t.Errorf("engines %v: %s must not be in %v", tc.engines, a, argv)
			}
		}
	}
}

func TestEngineValidation(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_NO_FLAGS=mcp-listen,no-mcp")
	for _, tc := range []struct {
		engines []string
		want    errs.Code
	}{
		{[]string{"nope"}, errs.Usage},
		{[]string{"postgres"}, errs.EngineUnsupported},
		{[]string{"tikv"}, errs.EngineUnsupported},
		{[]string{"mcp"}, errs.FeatureNotInServer},
	} {
		if _, err := f.create(t, "bad", false, tc.engines...); code(err) != tc.want {
			t.Errorf("engines %v: %v, want %s", tc.engines, err, tc.want)
		}
	}
	d, err := f.create(t, "nomcp", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range d.Engines {
		if e.Engine == "mcp" {
			t.Error("the default set must leave out mcp when the binary lacks --mcp-listen")
		}
	}
	if _, err := f.sv.Create(context.Background(), stack.CreateOptions{Name: "Bad_Name", ServerBinary: f.bin}); code(err) != errs.Usage {
		t.Errorf("invalid name: %v", err)
	}
	if _, err := f.sv.Create(context.Background(), stack.CreateOptions{Name: "s3", ServerBinary: f.bin, Storage: "s3://bucket"}); code(err) != errs.Usage {
		t.Errorf("object storage: %v", err)
	}
	if _, err := f.sv.Create(context.Background(), stack.CreateOptions{Name: "nobin", ServerBinary: "/no/such/loams"}); code(err) != errs.ServerBinaryNotFound {
		t.Errorf("missing binary: %v", err)
	}
}

// port_in_use names the engine, the port and, where the OS tells, the
// process holding it (here: this test process).
func TestPortInUse(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d, err := f.create(t, "ports", false)
	if err != nil {
		t.Fatal(err)
	}
	port := strings.TrimPrefix(d.Engines[len(d.Engines)-1].Endpoints["http"], "http://")
	l, err := net.Listen("tcp", port)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = f.sv.Start(context.Background(), "ports", 10*time.Second)
	e, _ := err.(*errs.Error)
	if e == nil || e.Code != errs.PortInUse || e.Details["engine"] != "es" || !strings.Contains(e.Message, strings.Split(port, ":")[1]) {
		t.Fatalf("want port_in_use naming es and its port, got %v", err)
	}
	if runtime.GOOS == "linux" {
		exe, _ := os.Executable()
		if e.Details["holder_pid"] != os.Getpid() || e.Details["holder_command"] != exe || !strings.Contains(e.Message, fmt.Sprintf("pid %d", os.Getpid())) {
			t.Errorf("want the holder named (pid %d, %s): %s %v", os.Getpid(), exe, e.Message, e.Details)
		}
	}
}

// The allocator must not depend on 8080 being free on the machine: the
// test holds 8080 itself (or finds it held), so the first stack moves to a
// block, says so once, and the second takes the next block.
func TestAllocator(t *testing.T) {
	t.Parallel()
	if l, err := net.Listen("tcp", "127.0.0.1:8080"); err == nil {
		defer l.Close()
	}
	f := newFixture(t)
	var notes []string
	f.sv.Notify = func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	first, err := f.sv.Create(context.Background(), stack.CreateOptions{Name: "one", Engines: []string{"native"}, ServerBinary: f.bin})
	if err != nil {
		t.Fatal(err)
	}
	second, err := f.sv.Create(context.Background(), stack.CreateOptions{Name: "two", Engines: []string{"native"}, ServerBinary: f.bin})
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := nativePort(t, first), nativePort(t, second)
	blockPort := func(p int) bool { return p >= 20080 && p <= 29980 && (p-80)%100 == 0 }
	if !blockPort(p1) || !blockPort(p2) || p1 == p2 {
		t.Errorf("ports %d and %d: want two different blocks' native port (base+80, bases 20000-29900)", p1, p2)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "8080") || !strings.Contains(notes[0], fmt.Sprint(p1)) {
		t.Errorf("the first stack moving off 8080 must say so once, naming both ports: %q", notes)
	}
}

func nativePort(t testing.TB, d *stack.Description) int {
	t.Helper()
	u := d.Engines[0].Endpoints["http"]
	_, port, _ := strings.Cut(strings.TrimPrefix(u, "http://"), ":")
	var p int
	if _, err := fmt.Sscan(port, &p); err != nil {
		t.Fatalf("native endpoint %q: %v", u, err)
	}
	return p
}

func TestCrashAtStartIsReportedAtOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_CRASH='metastore is corrupt'")
	start := time.Now()
	_, err := f.create(t, "crash", true)
	e, _ := err.(*errs.Error)
	if e == nil || e.Code != errs.ServerError || e.Details["exit_code"] != 1 {
		t.Fatalf("want server_error with exit code 1, got %v", err)
	}
	if tail, _ := e.Details["log_tail"].([]string); !strings.Contains(strings.Join(tail, "\n"), "metastore is corrupt") {
		t.Errorf("log tail: %v", e.Details["log_tail"])
	}
	if time.Since(start) > 25*time.Second {
		t.Errorf("a crash must not wait out the timeout")
	}
}

func TestSlowStartAndTimeout(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_READY_DELAY=1500ms")
	if _, err := f.create(t, "slow", false); err != nil {
		t.Fatal(err)
	}
	_, err := f.sv.Start(context.Background(), "slow", 300*time.Millisecond)
	if code(err) != errs.Timeout {
		t.Fatalf("want timeout, got %v", err)
	}
	d, _ := f.sv.Describe(context.Background(), "slow")
	if d.State != stack.Starting && d.State != stack.Running {
		t.Errorf("right after the timeout: %s, want starting", d.State)
	}
	d, err = f.sv.Start(context.Background(), "slow", 30*time.Second)
	if err != nil || d.State != stack.Running {
		t.Fatalf("a second start must wait for the same server: %v %+v", err, d)
	}
}

// A server that ignores SIGTERM is killed after --grace, and the wait is
// explained: the grace period and the SIGKILL that ends it.
func TestIgnoredSIGTERMIsKilledAfterGrace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_IGNORE_TERM=1")
	d, err := f.create(t, "stubborn", true)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notes []string
	f.sv.Notify = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		notes = append(notes, fmt.Sprintf(format, args...))
	}
	if _, err := f.sv.Stop(context.Background(), "stubborn", 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	// The supervisor's reaper may not have collected the zombie yet; a
	// pid that never goes is caught by the test's own timeout, not by a
	// guess at how fast a loaded machine reaps.
	for exec.Command("kill", "-0", fmt.Sprint(*d.PID)).Run() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if all := strings.Join(notes, "\n"); !strings.Contains(all, "1.5s") || !strings.Contains(all, "SIGKILL") || !strings.Contains(all, "--grace") {
		t.Errorf("the wait must name the grace period and the SIGKILL that follows: %q", notes)
	}
}

func TestStalePidIsCrashed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d, err := f.create(t, "stale", false)
	if err != nil {
		t.Fatal(err)
	}
	// A pid that exists but is another program: ours (the test process).
	pid := filepath.Join(filepath.Dir(d.DataDir), "server.pid")
	rec := fmt.Sprintf(`{"pid":%d,"start_time":"1","started_at":"2026-01-01T00:00:00Z"}`, os.Getpid())
	if err := os.WriteFile(pid, []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	if d, _ := f.sv.Describe(context.Background(), "stale"); d.State != stack.Crashed {
		t.Fatalf("reused pid: %s, want crashed", d.State)
	}
	if d, err := f.sv.Start(context.Background(), "stale", 30*time.Second); err != nil || d.State != stack.Running {
		t.Fatalf("start must recover a crashed stack: %v", err)
	}
}

func TestConcurrentStartsStartOneServer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_READY_DELAY=300ms")
	if _, err := f.create(t, "race", false); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	pids := make([]int, 4)
	for i := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if d, err := f.sv.Start(context.Background(), "race", 30*time.Second); err == nil && d.PID != nil {
				pids[i] = *d.PID
			}
		}()
	}
	wg.Wait()
	for _, p := range pids {
		if p == 0 || p != pids[0] {
			t.Fatalf("concurrent starts: pids %v, want one server", pids)
		}
	}
}

func TestTooManyStacks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range stack.MaxStacks {
		if _, err := f.create(t, fmt.Sprintf("s%d", i), false, "native"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.create(t, "ninth", false, "native"); code(err) != errs.TooManyStacks {
		t.Fatalf("9th stack: %v", err)
	}
}

func TestUnknownSchemaIsLeftAlone(t *testing.T) {
	t.Parallel()
	h := home.Home{Dir: t.TempDir()}
	dir := h.Stack("future")
	_ = os.MkdirAll(dir, 0o700)
	body := []byte("schema = 2\nname = \"future\"\n")
	_ = os.WriteFile(filepath.Join(dir, "stack.toml"), body, 0o600)
	if _, err := stack.Load(h, "future"); code(err) != errs.ConfigUnparseable {
		t.Fatalf("schema 2: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "stack.toml")); string(got) != string(body) {
		t.Error("stack.toml was rewritten")
	}
}

// A server whose /ready flaps (200, 503, 200, …) is one server throughout:
// start returns once it has been ready, describe never calls it crashed, a
// second start does not spawn another, and once it is old a 503 reads as
// unhealthy while a 200 reads as running.
func TestFlappingReadyIsNotACrash(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_FLAP=1")
	d, err := f.create(t, "flappy", true, "qdrant")
	if err != nil || d.State != stack.Running {
		t.Fatalf("start of a flapping server: %v %+v", err, d)
	}
	pid := *d.PID
	seen := map[string]int{}
	for range 6 {
		d, err := f.sv.Describe(context.Background(), "flappy")
		if err != nil || d.PID == nil || *d.PID != pid {
			t.Fatalf("describe: %v %+v (pid %d at start)", err, d, pid)
		}
		seen[d.State]++
	}
	if seen[stack.Running] == 0 || seen[stack.Starting] == 0 || len(seen) != 2 {
		t.Errorf("young flapping server: states %v, want running and starting only", seen)
	}
	again, err := f.sv.Start(context.Background(), "flappy", 30*time.Second)
	if err != nil || *again.PID != pid {
		t.Fatalf("second start: %v %+v, want the same pid %d", err, again, pid)
	}

	f.sv.Now = func() time.Time { return time.Now().Add(2 * stack.DefaultWait) }
	seen = map[string]int{}
	for range 6 {
		d, _ := f.sv.Describe(context.Background(), "flappy")
		seen[d.State]++
	}
	if seen[stack.Running] == 0 || seen[stack.Unhealthy] == 0 || len(seen) != 2 {
		t.Errorf("old flapping server: states %v, want running and unhealthy only", seen)
	}
}
