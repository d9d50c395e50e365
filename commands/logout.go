package commands

import (
	"context"
	"errors"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/secret"
)

func newLogoutCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "logout",
		Usage: "Delete the profile's stored API key",
		Description: describe("Removes the key `loams login --with-api-key` stored for the profile, from the\n"+
			"keyring and the file store. The endpoint setting stays; the server is not contacted.",
			"loams logout", "loams --profile staging logout"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return errs.New(errs.Usage, "run `loams logout --help`", "logout takes no arguments, got %q", cmd.Args().First())
			}
			return runLogout(ctx, f)
		},
	}
}

// runLogout takes no options: the verb has no flags of its own.
func runLogout(ctx context.Context, f *Factory) error {
	p, err := f.Profile()
	if err != nil {
		return err
	}
	store, err := f.ProfileKeys(ctx)
	if err != nil {
		return err
	}
	_, err = store.Get(ctx, p.Name)
	had := err == nil
	if err != nil && !errors.Is(err, secret.ErrNotFound) {
		return err
	}
	if err := store.Delete(ctx, p.Name); err != nil {
		return err
	}
	if had {
		f.say("removed the API key of profile %s", p.Name)
	} else {
		f.say("profile %s had no stored API key", p.Name)
	}
	return f.Printer().Print(output.View{
		JSON: map[string]any{"profile": p.Name, "removed": had},
		Rows: [][]string{{"profile", p.Name}, {"removed", yesNo(had)}},
	})
}
