package commands

import (
	"strings"
	"testing"
)

// Issue 28: `loams env export nodeapp` names the stack (it said "takes no
// arguments"); two names, or a name and another --stack, are usage.
func TestEnvExportTakesTheStackAsAnArgument(t *testing.T) {
	t.Parallel()
	env := cliEnv(t, "HOME="+t.TempDir())
	for _, n := range []string{"nodeapp", "pyapp"} {
		if _, errOut, code := loams(t, env, "stack", "create", "--name", n, "--no-start"); code != 0 {
			t.Fatalf("create %s: %s", n, errOut)
		}
	}
	if out, errOut, code := loams(t, env, "env", "export", "pyapp"); code != 0 || !strings.Contains(out, "LOAMS_STACK=pyapp\n") {
		t.Fatalf("env export pyapp: exit %d %s %s", code, out, errOut)
	}
	if out, _, code := loams(t, env, "env", "export", "pyapp", "--stack", "pyapp"); code != 0 || !strings.Contains(out, "LOAMS_STACK=pyapp\n") {
		t.Errorf("the same name twice: exit %d", code)
	}
	for _, args := range [][]string{{"pyapp", "nodeapp"}, {"pyapp", "--stack", "nodeapp"}} {
		if _, errOut, code := loams(t, env, append([]string{"env", "export"}, args...)...); code != 2 || !strings.Contains(errOut, "error:") {
			t.Errorf("env export %v: exit %d %s", args, code, errOut)
		}
	}
}
