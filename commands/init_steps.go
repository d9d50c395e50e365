package commands

import (
	"context"

	"loams.dev/cli/internal/errs"
)

// initStep is one step of `loams init`, as data: init runs the list in
// order, and a step that fails or is declined does not stop the next.
type initStep struct {
	name string
	// plan looks before the step: the question to ask before it runs, or,
	// when there is nothing to ask, the step's result already (nothing to
	// do, or it cannot run).
	plan func(context.Context, *initRun) (question string, settled *initStepResult)
	// run does the step once it is agreed to.
	run func(context.Context, *initRun) initStepResult
	// declined, when set, records a "no" beyond the step's own line.
	declined func(*initRun)
}

// initSteps are init's steps. Only the stack step needs a Loams server;
// the steps after it that need the stack say so when it is absent.
func initSteps() []initStep {
	return []initStep{
		{name: "profile", plan: planProfile, run: runProfile},
		{name: "project", plan: planProject, run: runProject},
		{name: "stack", plan: planStack, run: runStack},
		{name: "worktree", plan: planWorktrees, run: runWorktrees},
		{name: "env file", plan: planEnv, run: runEnv},
		{name: "agents", plan: planAgents, run: runAgents, declined: declineAgents},
	}
}

// initStepResult is what became of one step: done, skipped (why) or
// failed (why).
type initStepResult struct {
	Name    string       `json:"name"`
	Status  string       `json:"status"` // done | skipped | failed
	Message string       `json:"message"`
	Error   *errs.Object `json:"error,omitempty"`
	err     error
}

func stepDone(msg string) initStepResult    { return initStepResult{Status: "done", Message: msg} }
func stepSkipped(why string) initStepResult { return initStepResult{Status: "skipped", Message: why} }

// stepFailed records err; init exits with it after the summary.
func stepFailed(err error) initStepResult {
	obj := errs.As(err).Object()
	return initStepResult{Status: "failed", Message: obj.Message, Error: &obj, err: err}
}

// settled is a result known at plan time.
func settled(r initStepResult) (string, *initStepResult) { return "", &r }

// exec plans the step, asks (at a terminal; --yes answers), and runs it.
// Its error is an unanswered question: init stops there.
func (st initStep) exec(ctx context.Context, r *initRun) (initStepResult, error) {
	res, err := st.decide(ctx, r)
	res.Name = st.name
	return res, err
}

func (st initStep) decide(ctx context.Context, r *initRun) (initStepResult, error) {
	question, known := st.plan(ctx, r)
	if known != nil {
		return *known, nil
	}
	if !r.opts.yes {
		ok, err := r.f.askYes(question, true)
		if err != nil {
			return initStepResult{}, err
		}
		if !ok {
			if st.declined != nil {
				st.declined(r)
			}
			return stepSkipped("declined"), nil
		}
	}
	return st.run(ctx, r), nil
}
