package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/workspace"
)

// The --name flag and positional NAME every stack verb shares.

// nameFlag is --name; required only where the spec says so (the
// positional NAME, or the global --stack, satisfies it: see
// positionalStackName).
func nameFlag(dst *string, required bool) *cli.StringFlag {
	usage := "stack name, or give it as the first argument (default: LOAMS_STACK, the project's loams.toml, default_stack, the only stack)"
	if required {
		usage = "stack name, or give it as the first argument"
	}
	return &cli.StringFlag{Name: "name", Usage: usage, Destination: dst, Required: required}
}

// positionalStackName lets a stack verb take its stack as an argument
// (`loams stack start dev`, as gh and docker users type), or as the global
// --stack (`loams stack start --stack dev`, which every other verb spells
// so). It runs before urfave checks required flags, so either satisfies a
// required --name.
func positionalStackName(ctx context.Context, cmd *cli.Command) (context.Context, error) {
	args := cmd.Args().Slice()
	// Where the name is required (create, run, delete) the global --stack
	// is the name; elsewhere it stays the target rule's --stack step.
	if g := cmd.String("stack"); g != "" && len(args) == 0 && nameRequired(cmd) {
		if cmd.IsSet("name") && cmd.String("name") != g {
			return ctx, errs.New(errs.Usage, fmt.Sprintf("give the stack once: `%s %s`", cmd.FullName(), g),
				"two stack names: %q as --stack and %q as --name", g, cmd.String("name"))
		}
		args = []string{g}
	}
	switch {
	case len(args) > 1:
		return ctx, errs.New(errs.Usage, fmt.Sprintf("run `%s NAME`, one stack at a time", cmd.FullName()),
			"%s takes one stack name, got %d arguments: %s", cmd.FullName(), len(args), strings.Join(args, " "))
	case len(args) == 1:
		if cmd.IsSet("name") && cmd.String("name") != args[0] {
			return ctx, errs.New(errs.Usage, fmt.Sprintf("give the stack once: `%s %s`", cmd.FullName(), args[0]),
				"two stack names: %q as an argument and %q as --name/--stack", args[0], cmd.String("name"))
		}
		if err := cmd.Set("name", args[0]); err != nil {
			return ctx, err
		}
	}
	return ctx, nil
}

func nameRequired(c *cli.Command) bool {
	for _, fl := range c.Flags {
		if sf, ok := fl.(*cli.StringFlag); ok && sf.Name == "name" {
			return sf.Required || sf.Usage == boundUsage
		}
	}
	return false
}

// boundUsage marks the --name of create and delete: named, or the
// project's own binding (namedOrBound), never another step of the rule.
const boundUsage = "stack name, or give it as the first argument (default: the stack the project's loams.toml names)"

// nameOrBoundFlag is --name for create and delete.
func nameOrBoundFlag(dst *string) *cli.StringFlag {
	return &cli.StringFlag{Name: "name", Usage: boundUsage, Destination: dst}
}

// namedOrBound is the stack create or delete acts on: the name given, else
// the one the project's loams.toml names (in a bound project the name is
// already said). default_stack and the only stack do not count: creating
// or deleting another app's stack by omission is not a default.
func (f *Factory) namedOrBound(name, verb string) (string, error) {
	if name != "" {
		return name, nil
	}
	ws, err := f.Workspace()
	if err != nil {
		return "", err
	}
	b, err := ws.Binding()
	if err != nil {
		return "", err
	}
	if b.Stack != "" {
		f.sayTarget(workspace.Target{Stack: b.Stack, Source: workspace.FromManifest, Project: b.Dir})
		return b.Stack, nil
	}
	example := "NAME"
	if root := ws.ProjectRoot(); root != "" && verb == "create" {
		example = ws.ProposeFor(root)
	}
	return "", errs.New(errs.Usage, fmt.Sprintf("name it: `loams stack %s %s`", verb, example),
		"stack %s needs a stack name: no loams.toml here names one", verb)
}

func hasFlag(c *cli.Command, name string) bool {
	for _, fl := range c.Flags {
		for _, n := range fl.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// completeStackName offers the stacks of LOAMS_HOME where a stack verb
// takes its NAME (`loams stack start <TAB>`), and flags after a dash.
// It reads directory names only: TAB must not wait for servers.
func completeStackName(f *Factory) cli.ShellCompleteFunc {
	return func(ctx context.Context, cmd *cli.Command) {
		if cmd.NArg() > 0 { // a name already given, or a flag being typed
			cli.DefaultCompleteWithFlags(ctx, cmd)
			return
		}
		h, err := f.Home()
		if err != nil {
			return
		}
		entries, _ := os.ReadDir(h.StacksDir())
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(h.Stack(e.Name()), "stack.toml")); err == nil {
				fmt.Fprintln(cmd.Root().Writer, e.Name())
			}
		}
	}
}
