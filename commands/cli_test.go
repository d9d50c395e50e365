package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/output"
)

// cliRun is one in-process run of loams with fake streams.
type cliRun struct {
	stdout, stderr string
	code           int
	f              *Factory
}

// runLoams runs argv (without the program name) with env as the whole
// environment; LOAMS_HOME defaults to a fresh temp dir.
func runLoams(t *testing.T, env map[string]string, tty bool, argv ...string) cliRun {
	t.Helper()
	if env == nil {
		env = map[string]string{}
	}
	if _, ok := env["LOAMS_HOME"]; !ok {
		env["LOAMS_HOME"] = t.TempDir()
	}
	ios, _, out, errOut := iostreams.Test()
	ios.StdoutTTY, ios.StderrTTY = tty, tty
	f := &Factory{IO: ios, Getenv: func(k string) string { return env[k] }, Now: time.Now, Dir: t.TempDir(),
		Executable: func() (string, error) { return "/usr/local/bin/loams", nil }}
	code := Run(context.Background(), f, append([]string{"loams"}, argv...), nil)
	return cliRun{stdout: out.String(), stderr: errOut.String(), code: code, f: f}
}

func TestJSONModeErrorsLeaveStdoutEmpty(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		argv     []string
		code     string
		exitCode int
	}{
		{"missing profile", nil, []string{"--output", "json", "--profile", "nope", "configure", "list"}, "profile_not_found", 4},
		{"unknown flag", nil, []string{"--output", "json", "--bogus"}, "usage", 2},
		{"unknown flag after command", nil, []string{"-o", "json", "configure", "list", "--bogus"}, "usage", 2},
		{"-o=json form", nil, []string{"-o=json", "nosuchcmd"}, "usage", 2},
		{"env selects json", map[string]string{"LOAMS_OUTPUT": "json"}, []string{"configure", "get", "colour"}, "usage", 2},
		{"unknown subcommand", nil, []string{"-o", "json", "configure", "frob"}, "usage", 2},
		{"bad value", nil, []string{"-o", "json", "configure", "set", "output", "yaml"}, "usage", 2},
		{"missing argument", nil, []string{"-o", "json", "configure", "get"}, "usage", 2},
		{"env profile missing", map[string]string{"LOAMS_PROFILE": "ci"}, []string{"-o", "json", "configure", "list"}, "profile_not_found", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runLoams(t, tt.env, false, tt.argv...)
			if r.stdout != "" {
				t.Errorf("stdout not empty: %q", r.stdout)
			}
			if r.code != tt.exitCode {
				t.Errorf("exit %d, want %d", r.code, tt.exitCode)
			}
			var doc struct {
				Error struct {
					Code     string `json:"code"`
					Message  string `json:"message"`
					Hint     string `json:"hint"`
					ExitCode int    `json:"exit_code"`
				} `json:"error"`
			}
			dec := json.NewDecoder(strings.NewReader(r.stderr))
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("stderr is not one JSON object: %v\n%s", err, r.stderr)
			}
			if dec.More() {
				t.Errorf("more than one JSON document on stderr: %s", r.stderr)
			}
			if doc.Error.Code != tt.code || doc.Error.ExitCode != tt.exitCode || doc.Error.Message == "" || doc.Error.Hint == "" {
				t.Errorf("error object %+v, want code %s", doc.Error, tt.code)
			}
		})
	}
}

func TestTableModeErrorsAreTwoLines(t *testing.T) {
	r := runLoams(t, nil, false, "configre", "list")
	if r.code != 2 || r.stdout != "" {
		t.Fatalf("exit %d stdout %q", r.code, r.stdout)
	}
	want := "error: unknown command \"configre\" for `loams`\nhint: did you mean `loams configure`?"
	if !strings.HasPrefix(r.stderr, want) {
		t.Fatalf("stderr %q, want prefix %q", r.stderr, want)
	}
	r = runLoams(t, nil, false, "configure", "list", "--outptu", "json")
	if !strings.Contains(r.stderr, "did you mean --output?") {
		t.Fatalf("no flag suggestion: %q", r.stderr)
	}
}

func TestGlobalsResolution(t *testing.T) {
	writeConfig := func(t *testing.T, body string) string {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "config.toml"), []byte(body), 0o600)
		return dir
	}
	tests := []struct {
		name   string
		config string
		env    map[string]string
		argv   []string
		want   Globals
	}{
		{"defaults", "", nil, nil,
			Globals{Output: output.Table, Profile: "default", Color: "auto"}},
		{"flags", "[profile.work]\n", nil, []string{"--output", "text", "--profile", "work", "--no-input", "-q", "-v", "--color", "never"},
			Globals{Output: output.Text, OutputExplicit: true, Profile: "work", ProfileExplicit: true, NoInput: true, Quiet: true, Verbose: true, Color: "never"}},
		{"env", "[profile.ci]\n", map[string]string{"LOAMS_OUTPUT": "json", "LOAMS_PROFILE": "ci"}, nil,
			Globals{Output: output.JSON, OutputExplicit: true, Profile: "ci", ProfileExplicit: true, Color: "auto"}},
		{"flag beats env", "", map[string]string{"LOAMS_OUTPUT": "json"}, []string{"-o", "table"},
			Globals{Output: output.Table, OutputExplicit: true, Profile: "default", Color: "auto"}},
		{"profile output", "[profile.default]\noutput = \"text\"\n", nil, nil,
			Globals{Output: output.Text, Profile: "default", Color: "auto"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"LOAMS_HOME": writeConfig(t, tt.config)}
			for k, v := range tt.env {
				env[k] = v
			}
			r := runLoams(t, env, false, append(tt.argv, "configure", "list")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if r.f.Globals != tt.want {
				t.Fatalf("globals %+v\nwant    %+v", r.f.Globals, tt.want)
			}
		})
	}
}

func TestConfigureRoundTrip(t *testing.T) {
	env := map[string]string{"LOAMS_HOME": filepath.Join(t.TempDir(), "home")}
	steps := []struct {
		argv []string
		out  string
	}{
		{[]string{"configure", "set", "default_stack", "dev"}, "default_stack: dev\n"},
		{[]string{"configure", "get", "default_stack"}, "dev\n"},
		{[]string{"-o", "text", "configure", "list"}, "ca_cert\t\tdefault\ndefault_stack\tdev\tconfig\nendpoint\t\tdefault\nnamespace\t\tdefault\noutput\ttext\tflag --output\nsecrets\tauto\tdefault\nserver_binary\t\tdefault\nupdate_check\ttrue\tdefault\n"},
		{[]string{"configure", "unset", "default_stack"}, "default_stack: \n"},
		{[]string{"configure", "get", "default_stack"}, "\n"},
	}
	for _, s := range steps {
		r := runLoams(t, env, false, s.argv...)
		if r.code != 0 || r.stdout != s.out {
			t.Fatalf("%v: exit %d stdout %q want %q (stderr %s)", s.argv, r.code, r.stdout, s.out, r.stderr)
		}
	}
	fi, err := os.Stat(env["LOAMS_HOME"])
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("LOAMS_HOME mode: %v %v", fi.Mode().Perm(), err)
	}
	fi, _ = os.Stat(filepath.Join(env["LOAMS_HOME"], "config.toml"))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("config.toml mode %v", fi.Mode().Perm())
	}
}

func TestConfigureRefusesBrokenConfig(t *testing.T) {
	dir := t.TempDir()
	broken := []byte("[profile.default\noutput = \"json\"\n")
	os.WriteFile(filepath.Join(dir, "config.toml"), broken, 0o600)
	r := runLoams(t, map[string]string{"LOAMS_HOME": dir}, false, "configure", "set", "output", "text")
	if r.code != 5 || !strings.Contains(r.stderr, "does not parse") {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "config.toml")); !bytes.Equal(b, broken) {
		t.Fatalf("broken file was rewritten: %q", b)
	}
}

func TestTerminalAndPipedRendering(t *testing.T) {
	env := map[string]string{"LOAMS_HOME": t.TempDir()}
	piped := runLoams(t, env, false, "configure", "list")
	if strings.Contains(piped.stdout, "\x1b[") {
		t.Fatalf("piped output has escapes: %q", piped.stdout)
	}
	tty := runLoams(t, env, true, "configure", "list")
	if !strings.Contains(tty.stdout, "\x1b[") {
		t.Fatalf("terminal output is unstyled: %q", tty.stdout)
	}
	env["NO_COLOR"] = "1"
	if r := runLoams(t, env, true, "configure", "list"); strings.Contains(r.stdout, "\x1b[") {
		t.Fatalf("NO_COLOR ignored: %q", r.stdout)
	}
	delete(env, "NO_COLOR")
	if r := runLoams(t, env, false, "--color", "always", "configure", "list"); !strings.Contains(r.stdout, "\x1b[") {
		t.Fatalf("--color always ignored: %q", r.stdout)
	}
}

func TestVersionJSON(t *testing.T) {
	r := runLoams(t, nil, false, "version", "--output", "json")
	var v map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("%v: %q", err, r.stdout)
	}
	for _, k := range []string{"name", "version", "commit", "built_at", "os", "arch", "go", "docs_version", "output_schema"} {
		if _, ok := v[k]; !ok {
			t.Errorf("missing %s in %s", k, r.stdout)
		}
	}
	if v["name"] != "loams" || v["output_schema"] != float64(1) {
		t.Errorf("got %v", v)
	}
}

// TestCommandTree walks every command: a one-line usage starting with a
// capital letter, at least one example, and no flag spelled two ways.
func TestCommandTree(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewRoot(&Factory{IO: ios, Getenv: func(string) string { return "" }})
	// Setup happens in Run; run a harmless command so urfave adds the
	// completion command and help flags as users see them.
	root.Run(context.Background(), []string{"loams", "version"})
	var walk func(c *cli.Command, inherited map[string]string)
	walk = func(c *cli.Command, inherited map[string]string) {
		name := c.FullName()
		if c.Hidden {
			return
		}
		if c.Usage == "" || strings.Contains(c.Usage, "\n") || !strings.ContainsAny(c.Usage[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("%s: usage %q must be one line starting with a capital letter", name, c.Usage)
		}
		if !strings.Contains(c.Description, "Examples:\n  $ loams") {
			t.Errorf("%s: no example in its help", name)
		}
		seen := map[string]string{}
		for k, v := range inherited {
			seen[k] = v
		}
		for _, fl := range c.Flags {
			names := fl.Names()
			for _, n := range names {
				if owner, dup := seen[n]; dup && owner != names[0] {
					t.Errorf("%s: flag spelling %q used by --%s and --%s", name, n, owner, names[0])
				}
				seen[n] = names[0]
			}
		}
		for _, sub := range c.Commands {
			walk(sub, seen)
		}
	}
	walk(root, map[string]string{})
}
