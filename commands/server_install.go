package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/serverbin"
)

type serverInstallOptions struct {
	serverbin.InstallOptions
	allowDownload, yes bool
}

func newServerInstallCmd(f *Factory) *cli.Command {
	opts := &serverInstallOptions{}
	return &cli.Command{
		Name:  "install",
		Usage: "Download, verify and install the Loams server",
		Description: describe("Fetches loams-release.json and its minisign signature from LOAMS_RELEASES_URL\n"+
			"(default: the server project's latest GitHub release), verifies the signature, picks\n"+
			"the archive for this platform and --variant, asks before downloading (URL and size),\n"+
			"checks size and SHA-256, extracts the one `loams` binary, smoke-tests it and installs\n"+
			"it into $LOAMS_HOME/servers/<version>/<variant>/, marked current. Stacks created\n"+
			"afterwards use it. --from installs a local archive or binary (smoke test only).",
			"loams server install", "loams server install --version 0.3.0 --allow-download",
			"loams server install --from ./loams-standard-x86_64-unknown-linux-gnu.tar.xz"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "version", Usage: "release to install (default: the latest)", Destination: &opts.Version},
			&cli.StringFlag{Name: "variant", Value: "standard", Usage: "build: standard, full or cli", Destination: &opts.Variant},
			&cli.StringFlag{Name: "from", Usage: "install this .tar.xz archive or server binary (a path or an http(s) URL)", Destination: &opts.From},
			&cli.BoolFlag{Name: "allow-download", Usage: "download without asking", Destination: &opts.allowDownload},
			&cli.BoolFlag{Name: "allow-unsigned", Usage: "install although this loams has no key to verify the release with", Destination: &opts.AllowUnsigned},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "answer yes to the download question", Destination: &opts.yes},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return errs.New(errs.Usage, "give the version with --version", "server install takes no arguments, got %q", cmd.Args().First())
			}
			return runServerInstall(ctx, f, opts)
		},
	}
}

func runServerInstall(ctx context.Context, f *Factory, opts *serverInstallOptions) error {
	r, err := f.installServer(ctx, opts.InstallOptions, opts.allowDownload || opts.yes)
	if err != nil {
		if e := errs.As(err); (e.Code == errs.EndpointUnreachable || e.Code == errs.TLSError) && !strings.Contains(e.Hint, "--from") {
			// Offline, the release channel is out of reach; a file is not.
			e.Hint += "; offline, install from a file you have: `loams server install --from FILE` (a release archive or a server binary)"
			return e
		}
		return err
	}
	return f.Printer().Print(output.View{JSON: map[string]any{"installed": r}, Rows: [][]string{
		{"installed", r.Version + " (" + r.Variant + ")"}, {"path", r.Path}, {"signed", fmt.Sprint(r.Signed)},
		{"source", r.SourceURL}, {"sha256", r.SHA256}}})
}
