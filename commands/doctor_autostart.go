package commands

import (
	"context"
	"fmt"
	"os"

	"loams.dev/cli/autostart"
	"loams.dev/cli/stack"
)

// checkAutostart looks at each stack registered with the service manager
// (`stack autostart`): the loams it runs still exists (an upgrade that
// moves the binary breaks the registration), and on Linux, whether it
// starts at boot or only at login (lingering).
func checkAutostart(ctx context.Context, env *doctorEnv) []doctorCheck {
	f := env.f
	h, err := f.Home()
	if err != nil {
		return nil
	}
	names := []string{env.stack}
	if env.stack == "" {
		if names, err = stack.List(h); err != nil {
			return nil
		}
	}
	var out []doctorCheck
	var linux *autostart.Registration
	stacks := f.autostart()
	for _, n := range names {
		r := stacks.Managed(n)
		if r == nil {
			continue
		}
		if r.Platform.OS == "linux" {
			linux = r
		}
		name := "autostart " + n
		data, err := os.ReadFile(r.File)
		if err != nil {
			out = append(out, failed(name, err))
			continue
		}
		fix := fmt.Sprintf("`loams stack autostart on %s` registers it again with this loams", n)
		prog := r.Platform.Program(data)
		switch _, err := os.Stat(prog); {
		case prog == "" || err != nil:
			out = append(out, problem(checkFail, name, fix, "%s runs %s, which no longer exists (was loams moved or upgraded?)", r.File, prog))
		case prog != r.Service.Loams:
			out = append(out, problem(checkWarn, name, fix, "%s runs %s, not this loams (%s)", r.File, prog, r.Service.Loams))
		default:
			out = append(out, pass(name, "%s runs the stack with %s", r.Platform.Manager, prog))
		}
	}
	if linux != nil {
		switch on, known := autostart.Lingering(ctx, linux.Run, linux.User); {
		case known && !on:
			out = append(out, problem(checkWarn, "autostart lingering", "`loginctl enable-linger` (then they start at boot)",
				"lingering is off: autostarted stacks start when you log in, not at boot"))
		case known:
			out = append(out, pass("autostart lingering", "lingering is on: autostarted stacks start at boot"))
		}
	}
	return out
}
