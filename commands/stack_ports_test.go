package commands

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// Stacks made at once in separate LOAMS_HOMEs (as parallel tests make
// them) never get the same ports, even when none of them is started yet:
// each home records only its own stacks' ports, so the tests' builds claim
// their blocks from one list every test process shares. Before, each took
// the documented 8080 while it was free, and whichever started second
// lost the bind (TestWorktreesGetTheirOwnStacks, once, in CI).
func TestParallelHomesGetTheirOwnPorts(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	owner := map[string]int{} // host:port → home
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			env := cliEnv(t)
			out, errOut, code := loams(t, env, "stack", "create", "dev", "--no-start", "-o", "json")
			var d struct {
				Engines []struct {
					Endpoints map[string]string `json:"endpoints"`
				} `json:"engines"`
			}
			if code != 0 || json.Unmarshal([]byte(out), &d) != nil || len(d.Engines) == 0 {
				t.Errorf("create %d: exit %d %s %s", i, code, out, errOut)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, e := range d.Engines {
				for _, u := range e.Endpoints {
					hostPort := strings.TrimSuffix(u[strings.Index(u, "//")+2:], "/mcp")
					if o, ok := owner[hostPort]; ok {
						t.Errorf("home %d's %s is home %d's too", i, hostPort, o)
					}
					owner[hostPort] = i
				}
			}
		})
	}
	wg.Wait()
	if len(owner) != 4*6 {
		t.Errorf("%d ports in all, want 24 (six each): %v", len(owner), owner)
	}
}
