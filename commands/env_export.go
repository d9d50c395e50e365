package commands

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/workspace"
)

type envExportOptions struct {
	Stack       string
	Format      string // dotenv | shell | json
	Write       string
	Merge       string
	NoGitignore bool
	ProjectDir  string
	Force       bool // rewrite a file written for another target

	// Source is what gets exported for the --stack given ("" for none);
	// nil asks the workspace (the target rule), tests pass their own.
	Source func(ctx context.Context, name string) (envfile.Stack, workspace.Target, error)
}

// envExportJSON is `env export --output json`: names and redacted values.
type envExportJSON struct {
	Stack            string            `json:"stack"`
	Profile          string            `json:"profile,omitempty"`  // a remote profile's export
	Endpoint         string            `json:"endpoint,omitempty"` // its endpoint
	Variables        map[string]string `json:"variables"`
	Path             string            `json:"path,omitempty"`
	MergedInto       string            `json:"merged_into,omitempty"`
	GitignoreUpdated string            `json:"gitignore_updated,omitempty"`
	GitignoreAdded   []string          `json:"gitignore_added,omitempty"`
	ModeTightened    []string          `json:"mode_tightened,omitempty"`
	Target           workspace.Target  `json:"target"`
}

func newEnvExportCmd(f *Factory, runF func(context.Context, *envExportOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "Print a stack's settings as dotenv, shell or json, or write them to .env.loams",
		ArgsUsage: "[STACK]",
		Description: describe("dotenv and shell output contain the real API key (you asked for it);\n"+
			"json output redacts it. --write replaces a file atomically (mode 0600) and adds it to\n"+
			".gitignore when needed; --merge replaces the loams block in a file you own and keeps\n"+
			"every other byte (the file is git-ignored and made 0600 too). A file that would hold the\n"+
			"key is refused when git tracks it (file_tracked), a tool runs it (.envrc: forbidden) or\n"+
			"it is read-only (forbidden); then nothing is written. Relative paths are taken from the\n"+
			"project directory.",
			"loams env export --write .env.loams", "loams env export --stack dev --merge .env", "loams env export nodeapp",
			"eval \"$(loams env export --format shell)\"", "loams env export --output json"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "stack", Usage: "stack to export (default: the target rule: LOAMS_STACK, loams.toml, default_stack, the only stack)"},
			&cli.StringFlag{Name: "format", Value: "dotenv", Usage: "dotenv, shell or json"},
			&cli.StringFlag{Name: "write", Usage: "replace this file (e.g. .env.loams) instead of printing"},
			&cli.StringFlag{Name: "merge", Usage: "merge a marked block into this file (e.g. .env)"},
			&cli.BoolFlag{Name: "no-gitignore", Usage: "do not add the written file to .gitignore"},
			&cli.BoolFlag{Name: "force", Usage: "rewrite a file written for another stack or endpoint (re-points the app)"},
			&cli.StringFlag{Name: "project-dir", Usage: "project directory (default: $CLAUDE_PROJECT_DIR, else the nearest project root)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			// `env export nodeapp` names the stack, as `stack start nodeapp` does.
			stackName := cmd.String("stack")
			switch arg := cmd.Args().First(); {
			case cmd.Args().Len() > 1:
				return errs.New(errs.Usage, "name one stack: `loams env export NAME`", "env export takes one stack name, got %d arguments", cmd.Args().Len())
			case arg != "" && stackName != "" && arg != stackName:
				return errs.New(errs.Usage, "name the stack once", "env export got two stacks: %q and --stack %q", arg, stackName)
			case arg != "":
				stackName = arg
			}
			opts := &envExportOptions{
				Stack: stackName, Format: cmd.String("format"),
				Write: cmd.String("write"), Merge: cmd.String("merge"),
				NoGitignore: cmd.Bool("no-gitignore"), ProjectDir: cmd.String("project-dir"),
				Force: cmd.Bool("force"),
			}
			switch opts.Format {
			case "dotenv", "shell", "json":
			default:
				return errs.New(errs.Usage, "use --format dotenv, shell or json", "unknown --format %q", opts.Format)
			}
			if f.JSON() {
				opts.Format = "json"
			}
			if runF != nil {
				return runF(ctx, opts)
			}
			return runEnvExport(ctx, f, opts)
		},
	}
}

func runEnvExport(ctx context.Context, f *Factory, opts *envExportOptions) error {
	f.useProjectDir(opts.ProjectDir)
	source, name := opts.Source, opts.Stack
	if source == nil {
		ws, err := f.Workspace()
		if err != nil {
			return err
		}
		// --stack is the rule's second step; a stack, or a remote profile.
		source, name, ws.StackFlag = ws.ExportSource, "", opts.Stack
		if opts.Write != "" || opts.Merge != "" {
			// Into the project: an unbound project needs a choice, and
			// loams.toml alone may not choose the key (workspace/consent.go).
			source = func(ctx context.Context, name string) (envfile.Stack, workspace.Target, error) {
				return ws.ExportIntoProject(ctx, name, "")
			}
		}
	}
	st, target, err := source(ctx, name)
	if err != nil {
		return err
	}
	if opts.Format != "json" {
		f.sayTarget(target)
	}
	out := envExportJSON{Stack: st.Name, Variables: st.Values(), Target: target}
	if st.IsRemote() {
		out.Stack, out.Profile, out.Endpoint = "", st.Name, st.Endpoint
	}
	if opts.Write != "" || opts.Merge != "" {
		dir, err := f.envDir(opts.ProjectDir)
		if err != nil {
			return err
		}
		t := envfile.Target{Write: inDir(dir, opts.Write), Merge: inDir(dir, opts.Merge), Root: dir,
			Gitignore: !opts.NoGitignore, Version: buildinfo.Get().Version, Now: f.Now(), Force: opts.Force}
		res, err := envfile.Export(ctx, st, t)
		if err != nil {
			return err
		}
		out.Path, out.MergedInto, out.GitignoreUpdated = res.Path, res.MergedInto, res.GitignoreUpdated
		out.GitignoreAdded, out.ModeTightened = res.Ignored, res.Tightened
		if opts.Format == "json" {
			return output.WriteJSON(f.IO.Out, out)
		}
		f.say("wrote %d variables of %s to %s", len(res.Written), st.Label(), orOther(res.Path, res.MergedInto))
		if res.Path != "" && res.MergedInto != "" {
			f.say("merged the loams block into %s", res.MergedInto)
		}
		if res.GitignoreUpdated != "" {
			f.say("added %s to %s", strings.Join(res.Ignored, " and "), res.GitignoreUpdated)
		}
		for _, p := range res.Tightened {
			f.say("made %s readable by you only (0600): it holds the key", p)
		}
		return nil
	}
	switch opts.Format {
	case "json":
		// --format json is json even in table mode; the key stays redacted.
		return output.WriteJSON(f.IO.Out, out)
	case "shell":
		_, err = f.IO.Out.Write(st.Shell())
	default:
		_, err = f.IO.Out.Write(st.Dotenv(buildinfo.Get().Version, f.Now()))
	}
	return err
}

// inDir resolves a relative path against the project directory; absolute
// paths are used as given.
func inDir(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func orOther(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
