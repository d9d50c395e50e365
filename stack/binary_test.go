package stack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/serverbin"
	"loams.dev/cli/stack"
)

func argvOf(t *testing.T, d *stack.Description) []string {
	t.Helper()
	var argv []string
	data, _ := os.ReadFile(filepath.Join(d.DataDir, "argv.json"))
	if err := json.Unmarshal(data, &argv); err != nil {
		t.Fatal(err)
	}
	return argv
}

// after returns the value that follows flag in argv.
func after(argv []string, flag string) string {
	if i := slices.Index(argv, flag); i >= 0 && i+1 < len(argv) {
		return argv[i+1]
	}
	return ""
}

func service(d *stack.Description, pkg string) *serverbin.Service {
	for i := range d.Services {
		if d.Services[i].Package == pkg {
			return &d.Services[i]
		}
	}
	return nil
}

// A ready stack says what its server is (GetInstance), in either JSON
// spelling; an older server without the route keeps its --version.
func TestDescribeAsksTheServer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, env, edition string
	}{
		{"lowerCamelCase", "TESTSERVER_READY_DELAY=10ms", "standard"},
		{"snake_case", "TESTSERVER_SNAKE_CASE=1", "standard"},
		{"older server without GetInstance", "TESTSERVER_NO_GETINSTANCE=1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, tc.env)
			d, err := f.create(t, "id", true, "qdrant")
			if err != nil {
				t.Fatal(err)
			}
			if d.Edition != tc.edition || (tc.edition != "") != (service(d, "loams.instance.v1") != nil) {
				t.Fatalf("after start: edition %q services %+v", d.Edition, d.Services)
			}
			d, err = f.sv.Describe(context.Background(), "id")
			if err != nil || d.Edition != tc.edition {
				t.Fatalf("describe: %v %+v", err, d)
			}
			if d.ServerVersion != "0.0.1" {
				t.Errorf("server_version %q", d.ServerVersion)
			}
			if _, err := f.sv.Stop(context.Background(), "id", 0); err != nil {
				t.Fatal(err)
			}
			if d, _ := f.sv.Describe(context.Background(), "id"); d.Edition != "" || d.Services != nil {
				t.Errorf("a stopped stack cannot be asked: %+v", d)
			}
		})
	}
}

// The .deb/.rpm build: no pg, durable or mcp. The default engine set
// still starts, the server reports what it lacks, and no flag it does not
// have is passed.
func TestPackagedServer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_VARIANT=packaged")
	if _, err := f.create(t, "pg", false, "pg"); code(err) != errs.FeatureNotInServer {
		t.Errorf("pg on a packaged server: %v", err)
	}
	d, err := f.create(t, "dev", true)
	if err != nil {
		t.Fatal(err)
	}
	var engines []string
	for _, e := range d.Engines {
		engines = append(engines, e.Engine)
	}
	if !slices.Equal(engines, []string{"native", "flight-sql", "qdrant", "es"}) || d.State != stack.Running {
		t.Errorf("default engines on a packaged server: %v, %s", engines, d.State)
	}
	for pkg, avail := range map[string]bool{"loams.instance.v1": true, "loams.live.v1": true, "loams.mcp.v1": false, "loams.durable.v1": false, "loams.pgwire.v1": false} {
		if s := service(d, pkg); s == nil || s.Available != avail {
			t.Errorf("service %s: %+v, want available=%v", pkg, s, avail)
		}
	}
	argv := argvOf(t, d)
	for _, absent := range []string{"--no-mcp", "--no-durable", "--mcp-listen"} {
		if slices.Contains(argv, absent) {
			t.Errorf("%s passed to a server without it: %v", absent, argv)
		}
	}
	if !slices.Contains(argv, "--no-live") || after(argv, "--graph-data-dir") != filepath.Join(filepath.Dir(d.DataDir), "graph-data") {
		t.Errorf("live off, graph data inside the stack: %v", argv)
	}
}

// Live is on by default on 7710 in builds that have it; so is a SQL gate
// on 7720 that the registry does not know. Two stacks must both start:
// each such listener is turned off when the server offers --no-<x>, else
// moved into the stack's own block of ports.
func TestTwoStacksOnDefaultListeners(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  []string
		off  bool
	}{
		{"with --no-live", []string{"TESTSERVER_SQLGATE=1"}, true},
		{"without --no-live", []string{"TESTSERVER_SQLGATE=1", "TESTSERVER_NO_FLAGS=no-live"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, tc.env...)
			var bases []int
			for _, name := range []string{"one", "two"} {
				d, err := f.create(t, name, true, "qdrant")
				if err != nil {
					t.Fatalf("stack %s: %v", name, err)
				}
				argv := argvOf(t, d)
				base := 0
				if native := after(argv, "--listen"); native != "" {
					var p int
					_, _ = fmtSscan(strings.TrimPrefix(native, "127.0.0.1:"), &p)
					base = p - 80
				}
				bases = append(bases, base)
				if tc.off != slices.Contains(argv, "--no-live") {
					t.Errorf("%s: --no-live in %v", name, argv)
				}
				if !tc.off && after(argv, "--live-listen") != "127.0.0.1:"+itoa(base+10) {
					t.Errorf("%s: live must move into the block at %d: %v", name, base, argv)
				}
				if gate := after(argv, "--sqlgate-listen"); !strings.HasPrefix(gate, "127.0.0.1:") || gate == "127.0.0.1:7720" {
					t.Errorf("%s: the SQL gate must get a port of the block: %v", name, argv)
				}
			}
			if bases[0] == bases[1] {
				t.Errorf("two stacks in one block: %v", bases)
			}
		})
	}
}

func fmtSscan(s string, p *int) (int, error) { return fmt.Sscan(s, p) }

func itoa(n int) string { return strconv.Itoa(n) }
