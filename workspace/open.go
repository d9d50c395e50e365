package workspace

import (
	"cmp"
	"context"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// Selection is what a face was told: the directory to look for the
// project from and the global choices (flags, or LOAMS_PROFILE).
type Selection struct {
	// ProjectDir is --project-dir: the project the request is for. Open
	// falls back to $CLAUDE_PROJECT_DIR, which names the project for what
	// an agent runs (secrets-env.md), for both faces.
	ProjectDir string
	// Cwd is the working directory, used when ProjectDir is empty.
	Cwd      string
	Stack    string // --stack
	Endpoint string // --endpoint
	Profile  string // --profile, else LOAMS_PROFILE ("" for neither)
}

// Env is the process's machine: one of each per process, shared by both
// faces (one supervisor, one pair of secret stores).
type Env struct {
	Home        home.Home
	Getenv      func(string) string
	Secrets     func(context.Context) (secret.Store, error)
	ProfileKeys func(context.Context) (secret.BoundStore, error)
	Supervisor  func() (*stack.Supervisor, error)
	Managed     func(name string) Service
}

// Open is the one constructor of a Workspace: it decides, once, the
// directory the project (and its loams.toml) is looked for from. The CLI
// builds one per invocation and `mcp serve` hands the same one to the MCP
// server, so both faces find the same binding from the same directory.
func Open(sel Selection, env Env) *Workspace {
	project := cmp.Or(sel.ProjectDir, env.Getenv("CLAUDE_PROJECT_DIR"))
	dir := cmp.Or(project, sel.Cwd)
	return &Workspace{Home: env.Home, Getenv: env.Getenv, Dir: dir, explicitDir: project != "",
		StackFlag: sel.Stack, EndpointFlag: sel.Endpoint, ProfileFlag: sel.Profile,
		Secrets: env.Secrets, ProfileKeys: env.ProfileKeys, Supervisor: env.Supervisor, Managed: env.Managed}
}
