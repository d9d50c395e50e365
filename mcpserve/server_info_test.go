package mcpserve

import (
	"encoding/json"
	"strings"
	"testing"
)

// loams_info names the server used and where it came from; stack_status
// reports what a running server said about itself (GetInstance); with no
// server at all, stack_create asks the agent to have the user install one.
//
// Not parallel: stack_create takes the default ports, as TestStackAndEnvTools does.
func TestToolsReportTheServer(t *testing.T) {
	a := newAgent(t, "TESTSERVER_VARIANT=packaged")
	out, _ := a.call("stack_create", map[string]any{"name": "app", "start": true, "engines": []string{"qdrant"}})
	if out["state"] != "running" {
		t.Fatalf("stack_create: %v", out)
	}
	info, _ := a.call("loams_info", nil)
	data, _ := json.Marshal(info["server"])
	var srv struct {
		Source  string
		Engines []struct {
			Engine    string
			Available bool
		}
		Services []struct {
			Package   string
			Available bool
		}
	}
	_ = json.Unmarshal(data, &srv)
	avail := map[string]bool{}
	for _, e := range srv.Engines {
		avail[e.Engine] = e.Available
	}
	for _, s := range srv.Services {
		avail[s.Package] = s.Available
	}
	if srv.Source != "LOAMS_SERVER_BINARY" || avail["mcp"] || avail["durable"] || !avail["qdrant"] || avail["loams.durable.v1"] || !avail["loams.live.v1"] {
		t.Errorf("loams_info server: %s", data)
	}
	status, _ := a.call("stack_status", map[string]any{"name": "app"})
	data, _ = json.Marshal(status)
	if !strings.Contains(string(data), `"edition":"packaged"`) || !strings.Contains(string(data), `"server_version":"0.0.1"`) {
		t.Errorf("stack_status: %s", data)
	}

	none := newAgent(t, "LOAMS_SERVER_BINARY=", "PATH=/nonexistent", "HOME="+t.TempDir(), "LOAMS_TEST_ROOT="+t.TempDir())
	res, isErr := none.call("stack_create", map[string]any{"name": "app", "start": true})
	data, _ = json.Marshal(res)
	if !isErr && !strings.Contains(string(data), "server_binary_not_found") {
		t.Fatalf("stack_create without a server: %s", data)
	}
	if !strings.Contains(string(data), "ask the user to run `loams configure set server_binary PATH`") || strings.Contains(string(data), "server list") {
		t.Errorf("stack_create must tell the agent to ask the user: %s", data)
	}
}
