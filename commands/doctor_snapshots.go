package commands

import (
	"context"
	"fmt"
	"strings"

	"loams.dev/cli/stack"
)

// checkSnapshots is one row: how much disk the stacks' snapshots hold, so
// a full disk has a name to look at (`loams stack snapshot list`).
func checkSnapshots(_ context.Context, env *doctorEnv) []doctorCheck {
	sv, err := env.f.Supervisor()
	if err != nil {
		return []doctorCheck{failed("snapshots", err)}
	}
	names, err := stack.List(sv.Home)
	if err != nil {
		return []doctorCheck{failed("snapshots", err)}
	}
	count, total := 0, int64(0)
	var per []string
	for _, n := range names {
		snaps, err := sv.Snapshots(n)
		if err != nil || len(snaps) == 0 {
			continue
		}
		var b int64
		for _, s := range snaps {
			b += s.Bytes
		}
		count, total = count+len(snaps), total+b
		per = append(per, fmt.Sprintf("%s %d (%s)", n, len(snaps), humanBytes(b)))
	}
	if count == 0 {
		return []doctorCheck{pass("snapshots", "none")}
	}
	return []doctorCheck{pass("snapshots", "%d, %s (less on disk where the file system clones): %s",
		count, humanBytes(total), strings.Join(per, ", "))}
}
