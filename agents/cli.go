package agents

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
)

// versionTimeout: an agent CLI counts as present only if `--version`
// answers within it (a broken install must not hang install).
const versionTimeout = 5 * time.Second

// findCLI returns the absolute path of the agent's CLI when it is on PATH
// and answers `--version`; "" otherwise.
func (e Env) findCLI(ctx context.Context, a Agent) string {
	if a.CLI == "" {
		return ""
	}
	path := lookPath(a.CLI, e.Getenv("PATH"))
	if path == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Env = e.childEnv()
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return ""
	}
	return path
}

// Present reports which hosts look installed on this machine: their CLI
// answers, or one of their config directories exists (for `loams init`).
// An agent with an entry `loams mcp install` recorded is present too: a
// Claude Code set up through ~/.claude.json or a project's .mcp.json, with
// no ~/.claude directory and no `claude` on this PATH, is still there.
func (e Env) Present(ctx context.Context) []Agent {
	recorded := map[string]bool{}
	if recs, err := loadRecords(e.Loams.MCPInstalls()); err == nil {
		for _, r := range recs.Installs {
			recorded[r.Agent] = recorded[r.Agent] || e.ours(r)
		}
	}
	var out []Agent
	for _, a := range hosts {
		if recorded[a.Name] || slices.ContainsFunc(a.Detect(e), isDir) || e.findCLI(ctx, a) != "" {
			out = append(out, a)
		}
	}
	return out
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return p != "" && err == nil && fi.IsDir()
}

// runCLI runs an agent CLI command (argv[0] replaced by its path) in the
// project directory, as the user would from there.
func (e Env) runCLI(ctx context.Context, path string, argv []string) error {
	timeout := e.CLITimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	cmd.Dir = e.ProjectDir
	cmd.Env = e.childEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		tail := strings.TrimSpace(out.String())
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		return errs.New(errs.ServerError, "run it yourself to see why: "+strings.Join(argv, " "),
			"`%s` failed: %v", strings.Join(argv[:3], " "), err).With("command", argv).With("output", tail).Wrap(err)
	}
	return nil
}

// childEnv is our environment with HOME, PATH and the agents' own
// variables as the caller sees them (tests point them at temp dirs).
func (e Env) childEnv() []string {
	keys := []string{"HOME", "PATH", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "COPILOT_HOME", "XDG_CONFIG_HOME", "APPDATA", "USERPROFILE"}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(keys, k) {
			env = append(env, kv)
		}
	}
	for _, k := range keys {
		if v := e.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func lookPath(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
