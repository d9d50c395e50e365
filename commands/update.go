package commands

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/release"
	"loams.dev/cli/serverbin"
	"loams.dev/cli/update"
)

type updateOptions struct {
	version                               string
	allowUnsigned, rollback, yes, bgCheck bool
}

func newUpdateCmd(f *Factory) *cli.Command {
	var o updateOptions
	return &cli.Command{
		Name:    "update",
		Aliases: []string{"self-update"}, // the verb the server project's CLI plan names
		Usage:   "Replace this loams with the newest verified release",
		Description: describe("For a loams from a release archive: downloads this platform's archive, checks it\n"+
			"against the signed checksums.txt, runs the new binary's `version`, swaps it in\n"+
			"atomically and keeps the old one for --rollback. A loams that Homebrew put there is\n"+
			"upgraded with its command instead: printed, or run with --yes. A Go build of a release\n"+
			"tag is rebuilt in its clone: the answer names the lines.",
			"loams update", "loams update --version 0.4.0", "loams update --rollback"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "version", Usage: "install this release instead of the newest", Destination: &o.version},
			&cli.BoolFlag{Name: "allow-unsigned", Usage: "trust an HTTPS release's checksums when this loams has no signing key", Destination: &o.allowUnsigned},
			&cli.BoolFlag{Name: "rollback", Usage: "put back the loams the last update replaced", Destination: &o.rollback},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "run the Homebrew command for such an install", Destination: &o.yes},
			&cli.BoolFlag{Name: "background-check", Hidden: true, Usage: "ask the release channel for the newest version and record it (the update notice)", Destination: &o.bgCheck},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error { return runUpdate(ctx, f, o) },
	}
}

func runUpdate(ctx context.Context, f *Factory, o updateOptions) error {
	h, err := f.Home()
	if err != nil {
		return err
	}
	if o.bgCheck { // detached, nobody reads its output: the state file is the answer
		_ = update.BackgroundCheck(ctx, h, update.BaseURL(f.Getenv), &serverbin.Fetcher{Retries: 1, Backoff: time.Second}, f.Now)
		return nil
	}
	exe, err := f.executable()
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	info := buildinfo.Get()
	switch kind := update.KindOf(exe, info); kind {
	case update.Dev:
		return errs.New(errs.PlatformUnsupported, "rebuild it from your clone: `git pull && go install ./cmd/loams`",
			"this loams is a development build (%s): there is no release to update it to", info.Version).With("version", info.Version)
	case update.Homebrew, update.GoBuild:
		return runPackageManagerUpdate(ctx, f, kind, o)
	}
	u := &update.Updater{Home: h, Getenv: f.Getenv, Keys: append(release.CLIKeys(), serverbin.TestKeys(f.Getenv)...),
		Fetcher: &serverbin.Fetcher{}, Exe: exe, Current: info.Version, Warn: func(s string) { f.IO.Say("%s", s) }, Now: f.Now}
	var res *update.Result
	if o.rollback {
		res, err = u.Rollback(ctx)
	} else {
		err = f.withProgress("updating loams…", func() (err error) {
			res, err = u.Update(ctx, update.Options{Version: o.version, AllowUnsigned: o.allowUnsigned})
			return err
		})
	}
	if err != nil {
		return err
	}
	msg := "loams " + res.From + " → " + res.To + " (" + res.Path + "); `loams update --rollback` puts " + res.From + " back"
	switch {
	case res.UpToDate:
		msg = "loams " + res.From + " is the newest release"
	case o.rollback:
		msg = "loams " + res.From + " → " + res.To + " (rolled back; `loams update --rollback` again undoes it)"
	}
	return f.Printer().Print(output.View{JSON: res, Raw: msg + "\n", TextRows: [][]string{{res.From, res.To, res.Path}}})
}

// runPackageManagerUpdate prints (or with --yes runs) the command that
// upgrades an install loams does not own the file of.
func runPackageManagerUpdate(ctx context.Context, f *Factory, kind update.Kind, o updateOptions) error {
	if o.rollback {
		return errs.New(errs.Usage, "use your package manager to go back to an older loams", "--rollback is for a loams that `loams update` installed; this one is managed by %s", kind)
	}
	version := o.version
	if kind == update.GoBuild && version == "" { // name the newest release tag, when the channel answers quickly
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		version, _ = update.Latest(c, update.BaseURL(f.Getenv), &serverbin.Fetcher{Retries: 1, Backoff: 200 * time.Millisecond})
		cancel()
	}
	argv := update.UpgradeCommand(kind, version)
	if argv == nil { // a Go build: the clone is the user's, loams cannot rebuild it
		hint := update.UpgradeHint(kind, version)
		return errs.New(errs.PlatformUnsupported, hint, "this loams (%s) was built with Go from a release tag: `loams update` cannot rebuild it",
			buildinfo.Get().Version).With("command", update.CloneBuild(version))
	}
	line := strings.Join(argv, " ")
	res := map[string]any{"kind": string(kind), "command": argv, "ran": o.yes}
	if !o.yes {
		return f.Printer().Print(output.View{JSON: res, Raw: "this loams is managed by " + string(kind) + ": run `" + line + "` (or `loams update --yes`)\n"})
	}
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, f.IO.ErrOut, f.IO.ErrOut // stdout stays for the result
	if err := c.Run(); err != nil {
		return errs.New(errs.ServerError, "run `"+line+"` yourself to see why", "`%s` failed: %v", line, err).Wrap(err)
	}
	return f.Printer().Print(output.View{JSON: res, Raw: "ran `" + line + "`\n"})
}
