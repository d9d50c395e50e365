package commands

import (
	"context"
	"errors"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/release"
	"loams.dev/cli/serverbin"
)

// serverHowTo says how to get a Loams server in ways that work whether or
// not a release is published; again is the command to run afterwards.
func serverHowTo(again string) string {
	return "point loams at a Loams server binary: `LOAMS_SERVER_BINARY=PATH " + again + "` (or --server-binary PATH, " +
		"or `loams configure set server_binary PATH`), or install one with `loams server install --from FILE` " +
		"or the server's .deb/.rpm package (`" + again + " --allow-download` once a release is published); " +
		"`loams server list` shows where loams looked"
}

// noServer reports whether err is "no server found anywhere" (not a
// named path that is missing or no server: that one is the user's to fix).
func noServer(err error) bool {
	var e *errs.Error
	return errors.As(err, &e) && e.Code == errs.ServerBinaryNotFound && e.Details["path"] == nil
}

// noServerError is server_binary_not_found, the one answer to "no server"
// whatever the flags: also when installing one was tried and failed
// (nothing published, no key to verify with, the download declined or
// the network down), whose reason it carries.
func noServerError(again string, installErr error) *errs.Error {
	hint := serverHowTo(again)
	if installErr == nil {
		return errs.New(errs.ServerBinaryNotFound, hint, "no Loams server binary found").
			ForAgent(errs.AskUser("loams server install --from FILE"))
	}
	cause := errs.As(installErr)
	if cause.Code == errs.SignatureInvalid && len(release.Keys()) == 0 {
		// Only an explicit install may go on unsigned, not a side effect;
		// last, as it works only once a release is published.
		hint += "; with no signing key published yet, `loams server install --allow-unsigned` installs a published release unverified"
	}
	e := errs.New(errs.ServerBinaryNotFound, hint, "no Loams server binary found, and installing one did not work: %s", cause.Message).
		With("install_error", cause.Code).ForAgent(errs.AskUser("loams server install --from FILE")).Wrap(installErr)
	if url := cause.Details["url"]; cause.Code == errs.ReleaseNotPublished && url != nil {
		e.With("release_url", url) // the channel that had nothing
	}
	return e
}

// createWithServer runs create (init's or stack create's), and when no
// server is found anywhere and nothing was named explicitly, offers
// `server install`: at a terminal by asking (the question shows the URL
// and size), in scripts only with --allow-download. Whatever happens
// then, no server is server_binary_not_found with the ways that work.
func (f *Factory) createWithServer(ctx context.Context, allowDownload bool, again string, create func() error) error {
	err := create()
	if !noServer(err) {
		return err
	}
	if !allowDownload && !f.CanPrompt() {
		return noServerError(again, nil)
	}
	if !allowDownload {
		// Ask before the first request: looking up the release is network
		// traffic (and seconds of retries offline) the user did not ask for.
		ok, err := f.askYes("No Loams server found. Look up the latest release online? (loams asks again before downloading)", false)
		if err != nil {
			return err
		}
		if !ok {
			return noServerError(again, nil)
		}
	}
	f.Notice("No Loams server found; loams can install the latest release.")
	r, err := f.installServer(ctx, serverbin.InstallOptions{}, allowDownload)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return noServerError(again, err)
	}
	f.Notice("Installed the Loams server %s at %s.", r.Version, r.Path)
	return create()
}
