package stack_test

import (
	"context"
	"errors"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// Moving a stopped stack to another server (start --server-binary,
// restart --upgrade) never leaves one of its engines behind: a server
// without pg is feature_not_in_server naming the engine and the server,
// and stack.toml keeps the server it had.
func TestMovingToAServerWithoutAnEngineIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	packaged := newFixture(t, "TESTSERVER_VARIANT=packaged").bin
	if _, err := f.create(t, "pg", false, "pg"); err != nil {
		t.Fatal(err)
	}
	f.sv.ProfileServer = packaged // what restart --upgrade discovers
	for name, move := range map[string]func() (*stack.Spec, error){
		"repoint": func() (*stack.Spec, error) {
			return f.sv.Repoint(context.Background(), "pg", stack.Repoint{ServerBinary: packaged})
		},
		"upgrade": func() (*stack.Spec, error) { return f.sv.UseCurrentServer(context.Background(), "pg") },
	} {
		_, err := move()
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.FeatureNotInServer || e.Details["engine"] != "pg" || e.Details["path"] != packaged {
			t.Errorf("%s to a server without pg: %v (%+v)", name, err, e)
		}
		if s, err := stack.Load(f.sv.Home, "pg"); err != nil || s.ServerBinary != f.bin {
			t.Errorf("%s changed stack.toml's server: %v %+v", name, err, s)
		}
	}
}
