package serverbin

import (
	"errors"

	"loams.dev/cli/internal/errs"
)

// errFileMissing marks a release file the mirror does not have (404, or
// no such file in a file:// mirror).
var errFileMissing = errors.New("no such release file")

// WaysToGetServer is the one line naming every way to get a server that
// works without the release channel (README, "Getting the Loams server").
const WaysToGetServer = "get the Loams server: install its .deb/.rpm package (/usr/bin/loams) or Loams Desktop, " +
	"build it from the server's source with `cargo install`, " +
	"or point loams at a server you have: LOAMS_SERVER_BINARY, --server-binary, `loams configure set server_binary PATH`, " +
	"or `loams server install --from FILE`"

// notPublished turns a missing manifest into release_not_published: the
// release channel has nothing at relURL (today, nothing is published at
// all), so the hint names the ways that work instead.
func notPublished(err error, relURL, version string) error {
	if !errors.Is(err, errFileMissing) {
		return err
	}
	what := "no Loams server release is published"
	if version != "" {
		what = "Loams server release " + version + " is not published"
	}
	return errs.New(errs.ReleaseNotPublished, WaysToGetServer,
		"%s at %s", what, relURL).With("url", relURL+"loams-release.json").
		ForAgent(errs.AskUser("loams server install --from FILE") + " with a server binary or archive they have, or to install the server's package; then call stack_create again").
		Wrap(err)
}
