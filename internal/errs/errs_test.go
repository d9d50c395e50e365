package errs

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// The spec's exit-code table, written out independently of exitCodes so a
// slip in either shows up here.
var specExitCodes = map[Code]int{
	"internal": 1, "usage": 2,
	"confirmation_required": 3, "selection_required": 3, "download_consent_required": 3, "insecure_endpoint": 3,
	"stack_not_found": 4, "profile_not_found": 4, "server_binary_not_found": 4, "snippet_not_found": 4,
	"stack_exists": 5, "too_many_stacks": 5, "port_in_use": 5, "stack_running": 5, "stack_not_running": 5,
	"config_unparseable": 5, "file_conflict": 5, "file_tracked": 5,
	"engine_unsupported": 6, "platform_unsupported": 6, "ecosystem_unsupported": 6, "package_not_allowed": 6,
	"feature_not_in_server": 6, "variant_not_found": 6, "auth_not_available": 6,
	"stack_unreachable": 7, "timeout": 7, "server_error": 7, "keyring_unavailable": 7,
	"endpoint_unreachable": 7, "tls_error": 7, "disk_full": 7,
	"forbidden": 8, "path_outside_project": 8, "unauthenticated": 8, "unsafe_permissions": 8,
	"secret_missing": 9, "checksum_mismatch": 9, "signature_invalid": 9, "manifest_invalid": 9,
	"interrupted":     130,
	"stack_ambiguous": 2, "release_not_published": 4, "env_target_mismatch": 5, "config_unreadable": 5,
	"package_not_published": 6, "service_manager_unavailable": 6, "tool_disabled": 8,
	"snapshot_not_found": 4, "snapshot_exists": 5,
	"project_unbound": 3,
}

func TestEveryCodeMapsToItsExitCode(t *testing.T) {
	if got, want := len(Codes()), len(specExitCodes); got != want {
		t.Fatalf("Codes() has %d codes, the spec %d", got, want)
	}
	for _, c := range Codes() {
		want, ok := specExitCodes[c]
		if !ok {
			t.Errorf("code %q is not in the spec's table", c)
			continue
		}
		if got := c.ExitCode(); got != want {
			t.Errorf("%s.ExitCode() = %d, want %d", c, got, want)
		}
		if got := New(c, "h", "m").ExitCode(); got != want {
			t.Errorf("New(%s).ExitCode() = %d, want %d", c, got, want)
		}
	}
	if got := Code("no_such_code").ExitCode(); got != 1 {
		t.Errorf("unknown code exits %d, want 1", got)
	}
}

func TestAsFindsWrappedCodedErrors(t *testing.T) {
	inner := New(StackNotFound, "run `loams stack list`", "no stack named %q", "dev").With("name", "dev")
	e := As(fmt.Errorf("describe: %w", inner))
	if e.Code != StackNotFound || e.Details["name"] != "dev" {
		t.Fatalf("As lost the coded error: %+v", e)
	}
	plain := As(errors.New("boom"))
	if plain.Code != Internal || plain.Hint == "" {
		t.Fatalf("a plain error must become internal with a hint, got %+v", plain)
	}
	if !Is(fmt.Errorf("x: %w", inner), StackNotFound) || Is(inner, Usage) {
		t.Fatal("Is does not follow the chain")
	}
}

func TestObjectJSONShape(t *testing.T) {
	b, err := json.Marshal(New(PortInUse, "stop the other process", "port 6333 is in use").With("port", 6333).Object())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"code":"port_in_use","message":"port 6333 is in use","hint":"stop the other process","exit_code":5,"details":{"port":6333}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestToolCallRendersArgumentsAsAnAgentPastesThem(t *testing.T) {
	got := ToolCall("stack_start", map[string]any{"name": "a<b"})
	if want := `call stack_start with {"name":"a<b"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	e := New(StackNotRunning, "run `loams stack start dev`", "not running").ForAgent(got)
	if e.HintFor(false) != "run `loams stack start dev`" || e.HintFor(true) != got {
		t.Fatalf("HintFor picked the wrong face: %q / %q", e.HintFor(false), e.HintFor(true))
	}
	if New(Usage, "h", "m").HintFor(true) != "h" {
		t.Fatal("without an agent hint both faces share Hint")
	}
}
