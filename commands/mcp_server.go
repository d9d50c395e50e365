package commands

import (
	"os"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/mcpserve"
)

// mcpServer builds the server from the factory; `mcp tools` lists the same.
func (f *Factory) mcpServer(opts *mcpServeOptions) (*mcpserve.Server, func(), error) {
	h, err := f.Home()
	if err != nil {
		return nil, nil, err
	}
	// The project (and its loams.toml) is the agent's: --project-dir, else
	// $CLAUDE_PROJECT_DIR (workspace.Open, as for every verb), else the
	// directory the host started us in.
	f.useProjectDir(opts.projectDir)
	ws, err := f.Workspace()
	if err != nil {
		return nil, nil, err
	}
	if opts.stack != "" { // mcp serve's own --stack: the tools' second step
		ws.StackFlag = opts.stack
	}
	profileName, explicit, perr := ws.ProfileName()
	if perr != nil {
		// A loams.toml that does not parse must not keep the agent from
		// its docs: the tools that need the target report it when called.
		profileName, explicit = f.Globals.Profile, f.Globals.ProfileExplicit
	}
	p, err := ws.ProfileNamed(profileName, explicit)
	if err != nil {
		return nil, nil, err
	}
	// Only what the user named (--profile, LOAMS_PROFILE) is the server's
	// own choice; a profile loams.toml names stays the project's word,
	// which the workspace weighs itself (workspace/consent.go).
	profileName = ws.ProfileFlag
	access, err := opts.access(f.Getenv)
	if err != nil {
		return nil, nil, err
	}
	cwd, _ := os.Getwd()
	srv, closeFn := mcpserve.New(mcpserve.Options{
		Home: h, Getenv: f.Getenv, Profile: p, ProfileName: profileName, Stack: opts.stack, ProjectDir: opts.projectDir, Endpoint: f.Globals.Endpoint,
		Cwd: cwd, Now: f.Now, Build: buildinfo.Get(), Stderr: f.IO.ErrOut, SignalsReady: f.signalsReady, Access: access,
		Workspace: ws, // one workspace: the tools find the project, the stacks and the keys as the verbs do
	})
	return srv, closeFn, nil
}

// access is the tools the server exposes: the flags, else LOAMS_MCP_TOOLS
// (for hosts whose entries carry no arguments), else all.
func (opts *mcpServeOptions) access(getenv func(string) string) (mcpserve.Access, error) {
	if !opts.readOnly && opts.tools == "" {
		if v := getenv("LOAMS_MCP_TOOLS"); v != "" {
			return mcpserve.AccessFromEnv(v)
		}
	}
	return mcpserve.ParseAccess(opts.readOnly, opts.tools)
}
