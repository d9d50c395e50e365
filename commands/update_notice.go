package commands

import (
	"slices"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/update"
)

// updateNotice runs after a command succeeded: it prints the "a newer
// loams is out" line when the last background check found one, and
// starts the next check when one is due. It reads one small file and, at
// most once a day, starts a detached process: it never waits on the
// network. It says nothing wherever a line on stderr is unwelcome.
func updateNotice(f *Factory, args []string) {
	if !f.updateNoticeWanted(args) {
		return
	}
	info := buildinfo.Get()
	exe, err := f.executable()
	if err != nil {
		return
	}
	kind := update.KindOf(exe, info)
	if kind == update.Dev {
		return
	}
	h, err := f.Home()
	if err != nil {
		return
	}
	n := &update.Notifier{Home: h, Current: info.Version, Kind: kind, Now: f.Now, Spawn: func() error { return update.Spawn(exe) }}
	if line := n.Run(); line != "" {
		f.IO.Notice("%s", line)
	}
}

// updateNoticeWanted: never under `mcp serve`, -o json, CI, --no-input,
// --quiet, a non-terminal stderr, LOAMS_NO_UPDATE_NOTIFIER (or
// LOAMS_NO_UPDATE_CHECK, the name the server project's CLI plan uses), or
// `update_check = "false"`; nor for the commands a shell or a service
// manager runs (completions, stack run) or `update` itself.
func (f *Factory) updateNoticeWanted(args []string) bool {
	set := func(k string) bool { v := f.Getenv(k); return v != "" && v != "0" && v != "false" }
	if !f.IO.StderrTTY || f.JSON() || f.Globals.NoInput || f.Globals.Quiet || set("CI") || set("LOAMS_NO_INPUT") || set("LOAMS_NO_UPDATE_NOTIFIER") || set("LOAMS_NO_UPDATE_CHECK") {
		return false
	}
	for _, skip := range [][]string{{"mcp", "serve"}, {"update"}, {"self-update"}, {"completions"}, {"stack", "run"}, {"--generate-shell-completion"}} {
		if containsRun(args, skip) {
			return false
		}
	}
	cfg, err := f.Config()
	if err != nil {
		return false
	}
	for _, name := range []string{f.Globals.Profile, config.DefaultProfile} {
		if p, ok := cfg.Profile(name); ok && p.UpdateCheck == "false" {
			return false
		}
	}
	return true
}

// containsRun reports whether words appear in args one after another.
func containsRun(args, words []string) bool {
	for i := range args {
		if i+len(words) <= len(args) && slices.Equal(args[i:i+len(words)], words) {
			return true
		}
	}
	return false
}
