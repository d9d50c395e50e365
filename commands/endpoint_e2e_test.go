package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/internal/testkit/testbin"
)

// The done-when, with the built binary: against the stand-in
// behind TLS on 127.0.0.1, a newcomer configures the endpoint and the CA,
// logs in with a key on stdin, checks status and writes .env.loams; an
// agent's env_export writes the same file; the key appears only there.
func TestRemoteEndpointDoneWhen(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	root := t.TempDir()
	srv, ca := standin.StartTLS(t, remoteKey)

	project := filepath.Join(root, "app")
	loamsHome := filepath.Join(root, "loams-home")
	for _, d := range []string{project, filepath.Join(root, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"app"}`), 0o644)
	keyFile := filepath.Join(root, "key.txt")
	_ = os.WriteFile(keyFile, []byte(remoteKey+"\n"), 0o600)
	env := append(os.Environ(), "LOAMS_HOME="+loamsHome, "LOAMS_SECRETS=file", "HOME="+filepath.Join(root, "home"), "CI=true")
	env = append(env, "CLAUDE_PROJECT_DIR=") // the project is the working directory

	var seen strings.Builder
	loams := func(stdin string, args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, testbin.Loams(t), args...)
		cmd.Env, cmd.Dir = env, project
		if stdin != "" {
			f, err := os.Open(stdin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdin = f
		}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		seen.WriteString(out.String() + errOut.String())
		if err != nil {
			t.Fatalf("loams %v: %v\n%s%s", args, err, out.String(), errOut.String())
		}
		return out.String()
	}

	loams("", "configure", "set", "endpoint", srv.URL)
	loams("", "configure", "set", "ca_cert", ca.PEMPath)
	if out := loams(keyFile, "login", "--with-api-key"); !strings.Contains(out, "r3m0te0key00") {
		t.Fatalf("login does not show the key id:\n%s", out)
	}
	if out := loams("", "status"); !strings.Contains(out, "reachable") || !strings.Contains(out, "0.0.1") {
		t.Fatalf("status:\n%s", out)
	}
	var st statusJSON
	if err := json.Unmarshal([]byte(loams("", "status", "-o", "json")), &st); err != nil || !st.Reachable || st.Kind != "remote" || st.Endpoint != srv.URL {
		t.Fatalf("status json: %+v %v", st, err)
	}
	loams("", "env", "export", "--write", ".env.loams")

	dotenv := filepath.Join(project, ".env.loams")
	cliFile, err := os.ReadFile(dotenv)
	if err != nil {
		t.Fatal(err)
	}
	header := regexp.MustCompile(`^# Written by loams \S+ for profile "default" \(` + regexp.QuoteMeta(srv.URL) + `\) at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\. Do not commit\.\n`)
	body := "LOAMS_URL=" + srv.URL + "\nLOAMS_ENDPOINT=" + srv.URL + "\nLOAMS_API_KEY=" + remoteKey + "\n"
	if !header.Match(cliFile) || !strings.HasSuffix(string(cliFile), "\n"+body) || strings.Count(string(cliFile), "\n") != 4 {
		t.Fatalf(".env.loams:\n%s", cliFile)
	}
	if fi, _ := os.Stat(dotenv); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}

	// The agent: loams mcp serve under the same profile.
	if err := os.Remove(dotenv); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session, serveErr := mcpSession(t, ctx, env, project)
	call := func(name string, args map[string]any) map[string]any {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(res)
		seen.Write(data)
		if res.IsError {
			t.Fatalf("%s: %s", name, data)
		}
		var out map[string]any
		_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)
		return out
	}
	status := call("stack_status", map[string]any{})
	stacks, _ := status["stacks"].([]any)
	if len(stacks) != 1 {
		t.Fatalf("stack_status: %v", status)
	}
	remote, _ := stacks[0].(map[string]any)
	for k, want := range map[string]any{"name": "default", "kind": "remote", "endpoint": srv.URL, "state": "reachable", "server_version": "0.0.1"} {
		if remote[k] != want {
			t.Errorf("stack_status %s = %v; want %v", k, remote[k], want)
		}
	}
	call("env_export", map[string]any{})
	session.Close()
	seen.WriteString(serveErr.String())
	agentFile, err := os.ReadFile(dotenv)
	if err != nil {
		t.Fatal(err)
	}
	if !header.Match(agentFile) || !strings.HasSuffix(string(agentFile), "\n"+body) || len(agentFile) != len(cliFile) {
		t.Fatalf("the agent's .env.loams differs from the CLI's:\n%s\n---\n%s", agentFile, cliFile)
	}

	// The key is only in .env.loams (and in the secret store it came from).
	if log, err := os.ReadFile(filepath.Join(loamsHome, "logs", "mcp.log")); err == nil {
		seen.Write(log)
	}
	if cfg, err := os.ReadFile(filepath.Join(loamsHome, "config.toml")); err == nil {
		seen.Write(cfg)
	}
	_ = filepath.WalkDir(project, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != dotenv {
			b, _ := os.ReadFile(p)
			seen.Write(b)
		}
		return nil
	})
	if i := strings.Index(seen.String(), remoteKey[19:]); i >= 0 {
		t.Fatalf("the key appears outside .env.loams: …%s…", seen.String()[max(0, i-200):min(seen.Len(), i+60)])
	}
}
