package commands

import (
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/serverbin"
)

// compatibility is the server version's skew against this CLI, with the
// server helper's rules (serverbin.Skew); where Skew has no answer, status
// still says why: a dev build skips the check, an unknown version is unknown.
func compatibility(server string) string {
	b := buildinfo.Get()
	if c := serverbin.Skew(b.Version, server, b.IsDev()); c != "" {
		return c
	}
	if b.IsDev() {
		return "unchecked"
	}
	return "unknown"
}

// skewNotice is the one line an older server gets in table mode (json
// has compatibility: "older"): it works, but may lack what the docs show.
func (f *Factory) skewNotice(serverVersion, compatibility string) {
	if compatibility == serverbin.Older && !f.JSON() {
		f.say("notice: Loams server %s is older than this loams supports fully (its own minor or one below); run `loams server install` for a current one", serverVersion)
	}
}
