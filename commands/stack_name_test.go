package commands

import (
	"encoding/json"
	"strings"
	"testing"
)

// A stack verb takes its stack positionally (`loams stack start dev`) or
// as --name, with --stack as an alias; the binary drives a real server.
func TestStackNamePositionalAndAlias(t *testing.T) {
	t.Parallel()
	env := cliEnv(t)
	out, errOut, code := loams(t, env, "stack", "create", "web", "--port-base", "23200", "-o", "json")
	if code != 0 {
		t.Fatalf("create web (positional): %d %s", code, errOut)
	}
	defer loams(t, env, "stack", "stop", "web", "--grace", "2s")
	var d struct{ Name, State string }
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.Name != "web" || d.State != "running" {
		t.Fatalf("create output: %v %s", err, out)
	}
	if out, errOut, code := loams(t, env, "stack", "describe", "--stack", "web", "-o", "json"); code != 0 || !strings.Contains(out, `"name": "web"`) {
		t.Errorf("describe --stack web: %d %s %s", code, out, errOut)
	}
	if out, errOut, code := loams(t, env, "stack", "stop", "web", "-o", "json"); code != 0 || !strings.Contains(out, `"stopped"`) {
		t.Errorf("stop web: %d %s %s", code, out, errOut)
	}
	if _, errOut, code := loams(t, env, "stack", "delete", "web", "--yes"); code != 0 {
		t.Errorf("delete web --yes: %d %s", code, errOut)
	}
}

func TestStackNameErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		argv      []string
		code      string
		msg, hint string
	}{
		// The positional name reaches the verb: the error names it.
		{[]string{"stack", "describe", "dev"}, "stack_not_found", `"dev"`, "loams stack list"},
		{[]string{"stack", "logs", "--stack", "dev"}, "stack_not_found", `"dev"`, "loams stack list"},
		{[]string{"stack", "describe", "dev", "--name", "web"}, "usage", "two stack names", "loams stack describe dev"},
		{[]string{"stack", "start", "a", "b"}, "usage", "takes one stack name", "loams stack start NAME"},
		{[]string{"stack", "create"}, "usage", "needs a stack name", "loams stack create NAME"},
		{[]string{"stack", "delete", "--yes"}, "usage", "needs a stack name", "loams stack delete NAME"},
		// Outside `loams stack` the stack is --stack: --name points there.
		{[]string{"env", "export", "--name", "search"}, "usage", "unknown flag --name", "did you mean --stack?"},
		{[]string{"stack", "logs", "--tail", "3"}, "usage", "unknown flag --tail", "did you mean --lines?"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			t.Parallel()
			r := runLoams(t, map[string]string{"LOAMS_SECRETS": "file"}, false, append([]string{"-o", "json"}, tt.argv...)...)
			var doc struct {
				Error struct{ Code, Message, Hint string }
			}
			if err := json.Unmarshal([]byte(r.stderr), &doc); err != nil {
				t.Fatalf("stderr: %v %q", err, r.stderr)
			}
			e := doc.Error
			if e.Code != tt.code || !strings.Contains(e.Message, tt.msg) || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("got %+v, want code %s, message ~%q, hint ~%q", e, tt.code, tt.msg, tt.hint)
			}
		})
	}
}

func TestVersionFlagIsVersionCommand(t *testing.T) {
	t.Parallel()
	for _, argv := range [][]string{{"--version"}, {"-V"}, {"-o", "json", "--version"}} {
		r := runLoams(t, nil, false, argv...)
		if r.code != 0 || !strings.Contains(r.stdout, "loams") {
			t.Errorf("%v: exit %d stdout %q stderr %q", argv, r.code, r.stdout, r.stderr)
		}
	}
	if r := runLoams(t, nil, false, "-o", "json", "--version"); !strings.Contains(r.stdout, `"output_schema"`) {
		t.Errorf("-o json --version is not version's json: %q", r.stdout)
	}
	// A subcommand's own --version is not rewritten.
	if got := versionFlagAsCommand([]string{"loams", "server", "install", "--version", "1.2.3"}); strings.Join(got, " ") != "loams server install --version 1.2.3" {
		t.Errorf("rewrote a subcommand's --version: %v", got)
	}
}
