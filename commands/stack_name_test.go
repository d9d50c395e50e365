package commands

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/iostreams"
)

// checkTSV holds -o text to its contract: every line a record of tab-
// separated fields whose first names it, with the field count fields
// gives for that name; no field padded or holding two values; times
// RFC 3339, pids integers.
func checkTSV(t *testing.T, out string, fields map[string]int) {
	t.Helper()
	if out == "" || !strings.HasSuffix(out, "\n") {
		t.Fatalf("text output %q", out)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		cells := strings.Split(line, "\t")
		n, ok := fields[cells[0]]
		if !ok || len(cells) != n {
			t.Errorf("line %q: %d fields, want a known key with its field count", line, len(cells))
			continue
		}
		for _, c := range cells {
			if strings.TrimSpace(c) != c || strings.Contains(c, "  ") || strings.Contains(c, " (") {
				t.Errorf("line %q: field %q is padded or holds two values", line, c)
			}
		}
		switch cells[0] {
		case "started_at":
			if _, err := time.Parse(time.RFC3339, cells[1]); err != nil {
				t.Errorf("started_at %q is not RFC 3339", cells[1])
			}
		case "pid":
			if _, err := strconv.Atoi(cells[1]); err != nil {
				t.Errorf("pid %q is not an integer", cells[1])
			}
		}
	}
}

// A stack verb takes its stack positionally (`loams stack start dev`) or
// as --name, with --stack as an alias; the binary drives a real server.
func TestStackNamePositionalAndAlias(t *testing.T) {
	t.Parallel()
	env := cliEnv(t)
	out, errOut, code := loams(t, env, "stack", "create", "web", "--port-base", portBase(t), "-o", "json")
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
	out, _, _ = loams(t, env, "stack", "describe", "web", "-o", "text")
	checkTSV(t, out, map[string]int{"name": 2, "state": 2, "pid": 2, "started_at": 2, "endpoint": 4, "server_version": 2, "server_binary": 2, "data_dir": 2, "log_path": 2, "autostart": 2})
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
	ios, _, _, _ := iostreams.Test()
	root := NewRoot(&Factory{IO: ios, Getenv: func(string) string { return "" }})
	if got := versionFlagAsCommand(root, []string{"loams", "-q", "--profile", "work", "--version"}); strings.Join(got, " ") != "loams -q --profile work version" {
		t.Errorf("globals before --version: %v", got)
	}
	if got := versionFlagAsCommand(root, []string{"loams", "server", "install", "--version", "1.2.3"}); strings.Join(got, " ") != "loams server install --version 1.2.3" {
		t.Errorf("rewrote a subcommand's --version: %v", got)
	}
}
