package mcpserve

import (
	"context"

	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// workspace is the server's one resolver of "which stack, which endpoint,
// which key" (project.md), with hints rendered as tool calls. `loams mcp
// serve` hands over the CLI's own (Options.Workspace), so both faces find
// the project from the same directory and share one supervisor and one
// pair of secret stores; without one (this package's tests) it is opened
// by the same constructor from the same inputs.
func (s *Server) workspace() *workspace.Workspace {
	s.wsOnce.Do(func() {
		ws := s.opts.Workspace
		if ws == nil {
			ws = workspace.Open(workspace.Selection{
				ProjectDir: s.opts.ProjectDir, Cwd: s.opts.Cwd,
				Stack: s.opts.Stack, Endpoint: s.opts.Endpoint, Profile: s.opts.ProfileName,
			}, workspace.Env{Home: s.opts.Home, Getenv: s.opts.Getenv, Secrets: s.openSecretStore, ProfileKeys: s.profileKeys,
				Supervisor: s.ownSupervisor})
		}
		ws.Agent = true
		ws.Warn = func(msg string) { s.log.Info(msg) }
		ws.Notice = func(msg string) { s.log.Info(msg) }
		// Nobody at a terminal answers for an agent (stdin is the wire):
		// what needs the user's word is refused with a hint instead.
		ws.Confirm = nil
		// An agent's call is the consent to make a worktree's own stack.
		ws.MakeWorktreeStack = s.makeWorktreeStack
		s.ws = ws
	})
	return s.ws
}

// secretStore is the workspace's store of stack keys.
func (s *Server) secretStore(ctx context.Context) (secret.Store, error) {
	return s.workspace().Secrets(ctx)
}

// supervisor is the workspace's stack supervisor, shared by the tools.
func (s *Server) supervisor() (*stack.Supervisor, error) {
	return s.workspace().Supervisor()
}

// profileKeys opens the store of remote profiles' keys (no CLI workspace).
func (s *Server) profileKeys(ctx context.Context) (secret.BoundStore, error) {
	mode, err := secret.ResolveMode(s.opts.Profile.Secrets, s.opts.Getenv)
	if err != nil {
		return nil, err
	}
	return secret.OpenProfiles(ctx, mode, s.opts.Home, func(msg string) { s.log.Info(msg) })
}

// ownSupervisor is the supervisor of a server with no CLI workspace.
func (s *Server) ownSupervisor() (*stack.Supervisor, error) {
	s.svOnce.Do(func() {
		s.sv = &stack.Supervisor{Home: s.opts.Home, Secrets: s.openSecretStore, Getenv: s.opts.Getenv,
			ProfileServer: s.opts.Profile.ServerBinary, CreatedBy: "loams " + s.opts.Build.Version, Now: s.opts.Now}
		// What a killed snapshot, restore or clone left goes first.
		for _, c := range s.sv.ClearLeftovers(context.Background()) {
			s.log.Info("cleared " + c)
		}
	})
	return s.sv, nil
}

// makeWorktreeStack creates a git worktree's own stack on first need: an
// agent's call is the consent ([dev] worktrees = "clone" asked for it).
func (s *Server) makeWorktreeStack(name, from, project string) error {
	sv, err := s.supervisor()
	if err != nil {
		return err
	}
	if _, _, err = sv.Clone(context.Background(), stack.CloneOptions{Name: name, From: from, Project: project}); err == nil {
		s.log.Info("created stack " + name + " for the worktree " + project + " (a copy of " + from + ")")
	}
	return err
}
