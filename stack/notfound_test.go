package stack_test

import (
	"context"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

// Issue 28: a mistyped stack name gets a did-you-mean, and stopping a stack
// that does not exist does not suggest creating it.
func TestStackNotFoundHints(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if _, err := f.create(t, "nodeapp", false); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err := f.sv.Describe(ctx, "nodeap")
	e := errs.As(err)
	if e.Code != errs.StackNotFound || !strings.Contains(e.Hint, "did you mean `nodeapp`") || e.Details["did_you_mean"] != "nodeapp" ||
		!strings.Contains(e.HintFor(true), `{"name": "nodeapp"}`) {
		t.Errorf("typo: %+v", e)
	}
	_, err = f.sv.Stop(ctx, "nosuch", 0)
	if e := errs.As(err); e.Code != errs.StackNotFound || strings.Contains(e.Hint, "create") || strings.Contains(e.HintFor(true), "stack_create") {
		t.Errorf("stop nosuch: %+v", e)
	}
	_, err = f.sv.Describe(ctx, "other")
	if e := errs.As(err); e.Code != errs.StackNotFound || !strings.Contains(e.Hint, "loams stack create other") {
		t.Errorf("describe of a new name: %+v", e)
	}
}
