package mcpserve

import (
	"context"

	"loams.dev/cli/project"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// workspace is the server's one resolver of "which stack, which endpoint,
// which key" (project.md): the same rule as the CLI, from the project the
// agent was started in, with hints rendered as tool calls. Built on first
// use: the first answer must not wait for the disk.
func (s *Server) workspace() *workspace.Workspace {
	s.wsOnce.Do(func() {
		dir := s.opts.Cwd
		if root, err := project.Find(s.opts.ProjectDir, s.opts.Getenv, s.opts.Cwd); err == nil {
			dir = root
		}
		s.ws = &workspace.Workspace{Home: s.opts.Home, Getenv: s.opts.Getenv, Dir: dir,
			StackFlag: s.opts.Stack, EndpointFlag: s.opts.Endpoint, ProfileFlag: s.opts.ProfileName,
			Secrets: s.secretStore, ProfileKeys: s.profileKeys, Agent: true,
			Warn: func(msg string) { s.log.Info(msg) }, Notice: func(msg string) { s.log.Info(msg) },
			MakeWorktreeStack: s.makeWorktreeStack}
	})
	return s.ws
}

// profileKeys opens the store of remote profiles' keys.
func (s *Server) profileKeys(ctx context.Context) (secret.BoundStore, error) {
	mode, err := secret.ResolveMode(s.opts.Profile.Secrets, s.opts.Getenv)
	if err != nil {
		return nil, err
	}
	return secret.OpenProfiles(ctx, mode, s.opts.Home, func(msg string) { s.log.Info(msg) })
}

// supervisor is the stack manager the stack tools share.
func (s *Server) supervisor() *stack.Supervisor {
	sv := &stack.Supervisor{Home: s.opts.Home, Secrets: s.secretStore, Getenv: s.opts.Getenv,
		ProfileServer: s.opts.Profile.ServerBinary, CreatedBy: "loams " + s.opts.Build.Version, Now: s.opts.Now}
	for _, c := range sv.ClearLeftovers(context.Background()) {
		s.log.Info("cleared " + c)
	}
	return sv
}

// makeWorktreeStack creates a git worktree's own stack on first need: an
// agent's call is the consent ([dev] worktrees = "clone" asked for it).
func (s *Server) makeWorktreeStack(name, from, project string) error {
	_, _, err := s.supervisor().Clone(context.Background(), stack.CloneOptions{Name: name, From: from, Project: project})
	if err == nil {
		s.log.Info("created stack " + name + " for the worktree " + project + " (a copy of " + from + ")")
	}
	return err
}
