package stack

import (
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/typo"
)

// notFoundError is stack_not_found for name: with the stack of a close name
// when there is one (did you mean), and the way to make it only where
// making it is what the caller wants (not for stop or delete).
func notFoundError(h home.Home, name string, offerCreate bool) *errs.Error {
	close := closest(h, name)
	hint := "`loams stack list` shows the stacks"
	agent := errs.ToolCall("stack_status", nil) + " to see the stacks"
	switch {
	case close != "":
		hint = "did you mean `" + close + "`? (" + hint + ")"
		agent = "did you mean " + close + "? call the tool again with {\"name\": \"" + close + "\"}"
	case offerCreate:
		hint = "run `loams stack list`, or `loams stack create " + name + "`"
		agent += ", or " + errs.ToolCall("stack_create", map[string]any{"name": name})
	}
	e := errs.New(errs.StackNotFound, hint, "no stack named %q", name).With("name", name).ForAgent(agent)
	if close != "" {
		e.With("did_you_mean", close)
	}
	return e
}

// closest is the existing stack nearest to name, "" when none is within
// two edits (a typo, not another name).
func closest(h home.Home, name string) string {
	names, _ := List(h)
	best, bestD := "", 3
	for _, n := range names {
		if d := typo.Distance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}
