package commands

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/inert"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/internal/shellquote"
	"loams.dev/cli/pkgadd"
	"loams.dev/cli/project"
)

type pkgAddOptions struct {
	packages   []string
	language   string
	dev        bool
	dryRun     bool
	projectDir string
	version    string // the CLI's version, which the pins follow
}

func newPkgAddCmd(f *Factory, runF func(context.Context, *pkgAddOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "Add Loams SDK packages or the compatibility clients (qdrant, elasticsearch, postgres, flight) to the project",
		ArgsUsage: "PACKAGE…",
		Description: describe("PACKAGE is a logical name from the allow-list ("+strings.Join(pkgadd.Allowed().Logical(), ", ")+")\n"+
			"or a registry name; anything else is passed to the package manager as given,\n"+
			"after a warning. --dry-run prints the command without running it. A Python project\n"+
			"without uv or Poetry gets its virtual environment's pip (.venv, venv or $VIRTUAL_ENV)\n"+
			"and the pinned line in requirements.txt.",
			"loams pkg add sdk", "loams pkg add qdrant --language python", "loams pkg add live --dry-run --output json"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "language", Usage: "typescript (or javascript), python, rust or go (default: from the project's files)"},
			&cli.BoolFlag{Name: "dev", Usage: "add as a development dependency"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the command, run nothing"},
			&cli.StringFlag{Name: "project-dir", Usage: "the project directory (default: nearest with a manifest or .git)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opts := &pkgAddOptions{packages: cmd.Args().Slice(), language: cmd.String("language"), dev: cmd.Bool("dev"),
				dryRun: cmd.Bool("dry-run"), projectDir: cmd.String("project-dir"), version: buildinfo.Get().Version}
			if len(opts.packages) == 0 {
				return errs.New(errs.Usage, "e.g. `loams pkg add sdk`; packages: "+strings.Join(pkgadd.Allowed().Logical(), ", "), "pkg add needs at least one PACKAGE")
			}
			if runF != nil {
				return runF(ctx, opts)
			}
			return runPkgAdd(ctx, f, opts)
		},
	}
}

func runPkgAdd(ctx context.Context, f *Factory, opts *pkgAddOptions) error {
	cwd, _ := os.Getwd()
	dir, err := project.Find(opts.projectDir, f.Getenv, cwd)
	if err != nil {
		return err
	}
	req := pkgadd.Request{Packages: opts.packages, Language: opts.language, Dev: opts.dev, DryRun: opts.dryRun,
		ProjectDir: dir, Version: opts.version, AllowUnknown: true, Getenv: f.Getenv}
	if f.CanPrompt() {
		req.Choose = func(c []pkgadd.Found) (pkgadd.Found, error) {
			var names []string
			for _, x := range c {
				names = append(names, fmt.Sprintf("%s (%s, from %s)", x.Language, x.Name, x.Marker))
			}
			i, err := f.askChoice("This project has several ecosystems. Add to which?", names)
			return c[i], err
		}
	}
	plan, err := pkgadd.Prepare(req)
	if err != nil {
		return err
	}
	for _, u := range plan.Unknown {
		// A warning, not a notice: a script must see it too.
		f.warn("%q is not a Loams package; passing it to %s as given", u, plan.Name)
	}
	var res *pkgadd.Result
	if !opts.dryRun {
		stop := f.IO.Progress("running " + strings.Join(plan.Argv, " "))
		res, err = pkgadd.Run(ctx, plan, req)
		stop()
	} else {
		res, err = pkgadd.Run(ctx, plan, req)
	}
	if err != nil {
		return err
	}
	if err := pkgadd.Failure(res); err != nil {
		printTail(f, res)
		return err
	}
	if !f.JSON() {
		for _, n := range res.Notes {
			fmt.Fprintf(f.IO.ErrOut, "note: %s\n", inert.String(n)) // it may name a path of the repository
		}
	}
	return f.Printer().Print(pkgAddView(res))
}

// printTail shows a failed run's output to a person (json mode carries it
// in the error's details instead).
func printTail(f *Factory, res *pkgadd.Result) {
	if f.JSON() || res.OutputTail == "" {
		return
	}
	fmt.Fprint(f.IO.ErrOut, res.OutputTail)
	if !strings.HasSuffix(res.OutputTail, "\n") {
		fmt.Fprintln(f.IO.ErrOut)
	}
}

func pkgAddView(res *pkgadd.Result) output.View {
	cmdline := shellquote.Join(res.Command)
	rows := [][]string{
		{"ecosystem", string(res.Ecosystem) + " (" + res.Language + ")"},
		{"package manager", res.PackageManager},
		{"command", cmdline},
		{"project", res.ProjectDir},
		{"manifest", res.Manifest},
	}
	if res.DryRun {
		rows = append(rows, []string{"dry run", "nothing ran; package manager found: " + strconv.FormatBool(res.PackageManagerFound)})
	} else {
		rows = append(rows, []string{"exit code", strconv.Itoa(*res.ExitCode)}, []string{"manifest changed", strconv.FormatBool(res.ManifestChanged)})
	}
	v := output.View{JSON: res, Rows: rows}
	if res.DryRun {
		v.Rows, v.Raw = nil, cmdline+"\n" // ready to paste or to $(…)
	}
	return v
}
