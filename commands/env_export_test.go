package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/secret"
	"loams.dev/cli/workspace"
)

const testKey = "loams_abcdefghijkl_ENVEXPORTTESTKEYENVEXPORTTESTKE"

type fakeStacks map[string]envfile.Stack

func (s fakeStacks) Names() ([]string, error) {
	var out []string
	for n := range s {
		out = append(out, n)
	}
	return out, nil
}

func (s fakeStacks) Load(_ context.Context, name string) (envfile.Stack, error) {
	st, ok := s[name]
	if !ok {
		return st, errs.New(errs.StackNotFound, "run `loams stack list`", "no stack named %q", name)
	}
	return st, nil
}

// source is envExportOptions.Source over the fake stacks: the named one,
// else the only one.
func (s fakeStacks) source(ctx context.Context, name string) (envfile.Stack, workspace.Target, error) {
	t := workspace.Target{Stack: name, Source: workspace.FromArgument}
	if name == "" && len(s) == 1 {
		for n := range s {
			t = workspace.Target{Stack: n, Source: workspace.FromOnlyStack}
		}
	}
	st, err := s.Load(ctx, t.Stack)
	return st, t, err
}

func oneStack() fakeStacks {
	return fakeStacks{"dev": {Name: "dev", Vars: []envfile.Var{{Name: "LOAMS_URL", Value: "http://127.0.0.1:8080"}, {Name: "QDRANT_URL", Value: "http://127.0.0.1:6333"}}, Key: secret.New(testKey)}}
}

func envFactory(t *testing.T, format output.Format, env map[string]string) (*Factory, *bytes.Buffer, *bytes.Buffer) {
	ios, _, out, errOut := iostreams.Test()
	if env == nil {
		env = map[string]string{}
	}
	env["LOAMS_HOME"] = t.TempDir()
	f := &Factory{IO: ios, Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC) }, Dir: t.TempDir()}
	f.Globals.Output = format
	return f, out, errOut
}

func TestEnvExportFlags(t *testing.T) {
	t.Parallel()
	var got *envExportOptions
	ios, _, _, _ := iostreams.Test()
	f := &Factory{IO: ios, Getenv: func(string) string { return "" }}
	cmd := newEnvExportCmd(f, func(_ context.Context, o *envExportOptions) error { got = o; return nil })
	cmd.ExitErrHandler = func(context.Context, *cli.Command, error) {} // return errors, never exit
	err := cmd.Run(context.Background(), []string{"export", "--stack", "dev", "--format", "shell", "--write", ".env.loams", "--merge", ".env", "--no-gitignore", "--project-dir", "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Stack != "dev" || got.Format != "shell" || got.Write != ".env.loams" || got.Merge != ".env" || !got.NoGitignore || got.ProjectDir != "/p" {
		t.Errorf("options = %+v", got)
	}
	if err := cmd.Run(context.Background(), []string{"export", "--format", "yaml"}); !errs.Is(err, errs.Usage) {
		t.Errorf("--format yaml = %v, want usage", err)
	}
}

func TestEnvExportPrints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format  string
		json    bool
		want    []string
		wantNot string
	}{
		{format: "dotenv", want: []string{"# Written by loams ", "LOAMS_STACK=dev\nLOAMS_URL=http://127.0.0.1:8080\nLOAMS_API_KEY=" + testKey + "\nQDRANT_URL="}},
		{format: "shell", want: []string{"export LOAMS_API_KEY='" + testKey + "'\n"}},
		{format: "json", want: []string{`"stack": "dev"`, `redacted: in .env.loams`}, wantNot: testKey},
		{format: "dotenv", json: true, want: []string{`"variables"`}, wantNot: testKey},
	}
	for _, tt := range tests {
		format := output.Table
		if tt.json {
			format = output.JSON
		}
		f, out, _ := envFactory(t, format, nil)
		fmtName := tt.format
		if tt.json {
			fmtName = "json" // what the constructor does under --output json
		}
		err := runEnvExport(context.Background(), f, &envExportOptions{Format: fmtName, Source: oneStack().source})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: %q missing from\n%s", tt.format, w, out)
			}
		}
		if tt.wantNot != "" && strings.Contains(out.String(), tt.wantNot) {
			t.Errorf("%s json output leaks the key: %s", tt.format, out)
		}
		if tt.format == "json" && !json.Valid(out.Bytes()) {
			t.Errorf("not one json document: %s", out)
		}
	}
}

func TestEnvExportWritesIntoProject(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	proj := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	os.WriteFile(filepath.Join(proj, ".env"), []byte("# mine\nexport A=1"), 0o640)
	f, out, errOut := envFactory(t, output.Table, nil)
	opts := &envExportOptions{Format: "dotenv", Write: ".env.loams", Merge: ".env", ProjectDir: proj, Source: oneStack().source}
	if err := runEnvExport(context.Background(), f, opts); err != nil {
		t.Fatal(err)
	}
	if out.String() != "" {
		t.Errorf("stdout = %q, want nothing when writing files", out)
	}
	fi, err := os.Stat(filepath.Join(proj, ".env.loams"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf(".env.loams: %v %v", fi, err)
	}
	gi, _ := os.ReadFile(filepath.Join(proj, ".gitignore"))
	// The merge target holds the key too: ignored as well, and 0600 now.
	if string(gi) != ".env.loams\n.env\n" || !strings.Contains(errOut.String(), "added .env.loams and .env to") {
		t.Errorf(".gitignore = %q, stderr = %q", gi, errOut)
	}
	if fi, _ := os.Stat(filepath.Join(proj, ".env")); fi.Mode().Perm() != 0o600 || !strings.Contains(errOut.String(), "(0600)") {
		t.Errorf(".env mode %o, stderr %q", fi.Mode().Perm(), errOut)
	}
	env, _ := os.ReadFile(filepath.Join(proj, ".env"))
	if !strings.HasPrefix(string(env), "# mine\nexport A=1\n# >>> loams (stack dev) >>>\n") {
		t.Errorf(".env = %q", env)
	}
	// Again, with --no-gitignore after removing the line: .gitignore stays as it is.
	os.WriteFile(filepath.Join(proj, ".gitignore"), nil, 0o644)
	opts.NoGitignore = true
	if err := runEnvExport(context.Background(), f, opts); err != nil {
		t.Fatal(err)
	}
	if gi, _ := os.ReadFile(filepath.Join(proj, ".gitignore")); len(gi) != 0 {
		t.Errorf("--no-gitignore changed .gitignore: %q", gi)
	}
}
