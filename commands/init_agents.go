package commands

import (
	"context"
	"strings"

	"loams.dev/cli/agents"
	"loams.dev/cli/internal/errs"
)

// agentPlan is one agent the agent step would register loams with.
type agentPlan struct {
	req  agents.InstallRequest
	path string
}

// planAgents finds the agents (or takes --agent) and dry-runs each
// install: those already set up, or whose config cannot be changed, are
// settled here; the rest are asked about in one question.
func planAgents(ctx context.Context, r *initRun) (string, *initStepResult) {
	if r.opts.noAgent {
		return settled(stepSkipped("--no-agent"))
	}
	env, err := r.f.agentsEnv("")
	if err != nil {
		return settled(stepFailed(err))
	}
	names := r.opts.agents
	if len(names) == 0 {
		for _, a := range env.Present(ctx) {
			names = append(names, a.Name)
		}
	}
	if len(names) == 0 {
		return settled(stepSkipped("no coding agent found (claude or codex on PATH, ~/.cursor, ~/.codeium/windsurf, …): " +
			"run `loams mcp install --agent NAME` once you have one"))
	}
	// No stack yet: agents get the entry that follows the default stack
	// (`mcp serve`); init run again adds the stack's own entry.
	stackName, url, err := r.f.stackMCPEndpoint(r.opts.stack)
	if err != nil && r.res.Stack.State != "absent" {
		return settled(stepFailed(err))
	}
	serveArgs, err := r.f.serveArgs() // `loams --profile work init` registers `mcp serve --profile work`
	if err != nil {
		return settled(stepFailed(err))
	}
	var where []string
	for _, name := range names {
		req := agents.InstallRequest{Agent: name, Stack: stackName, MCPURL: url, ServeArgs: serveArgs, DryRun: true}
		plan, err := agents.Install(ctx, env, req)
		switch {
		case err != nil:
			r.agentFailed(name, err)
		case !plan.Changed:
			r.res.Agents = append(r.res.Agents, initAgent{Agent: name}.done("already_installed", plan))
		default:
			r.agents = append(r.agents, agentPlan{req: req, path: plan.Path})
			where = append(where, name+" ("+plan.Path+")")
		}
	}
	if len(r.agents) == 0 {
		return settled(r.agentsResult())
	}
	return "Register `loams mcp serve` with " + strings.Join(where, ", ") + "?", nil
}

func runAgents(ctx context.Context, r *initRun) initStepResult {
	env, err := r.f.agentsEnv("")
	if err != nil {
		return stepFailed(err)
	}
	for _, p := range r.agents {
		p.req.DryRun = false
		res, err := agents.Install(ctx, env, p.req)
		if err != nil {
			r.agentFailed(p.req.Agent, err)
			continue
		}
		r.res.Agents = append(r.res.Agents, initAgent{Agent: p.req.Agent}.done("installed", res))
		r.changed("registered loams with " + p.req.Agent)
	}
	return r.agentsResult()
}

// declineAgents lists the agents asked about as declined.
func declineAgents(r *initRun) {
	for _, p := range r.agents {
		r.res.Agents = append(r.res.Agents, initAgent{Agent: p.req.Agent, Status: "declined"})
	}
}

// agentFailed records one agent's failure: it does not stop the others.
func (r *initRun) agentFailed(name string, err error) {
	obj := errs.As(err).Object()
	r.res.Agents = append(r.res.Agents, initAgent{Agent: name, Status: "failed", Error: &obj})
	r.f.warn("%s not set up: %s (%s)", name, obj.Message, obj.Hint)
}

// agentsResult sums up the agents: failed when one failed (with its
// error), else done.
func (r *initRun) agentsResult() initStepResult {
	var parts []string
	var failure error
	for _, a := range r.res.Agents {
		part := a.Agent + " " + strings.ReplaceAll(a.Status, "_", " ")
		if a.Error != nil {
			part += ": " + a.Error.Message
			if failure == nil {
				failure = errs.New(a.Error.Code, a.Error.Hint, "%s: %s", a.Agent, a.Error.Message)
			}
		}
		parts = append(parts, part)
	}
	if failure != nil {
		res := stepFailed(failure)
		res.Message = strings.Join(parts, "; ")
		return res
	}
	return stepDone(strings.Join(parts, ", "))
}
