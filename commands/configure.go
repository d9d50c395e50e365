package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
)

func newConfigureCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "configure",
		Usage: "Read and change settings of the active profile in config.toml",
		Description: describe("Settings: "+joinKeys()+". The profile is `default` unless --profile or LOAMS_PROFILE names another.",
			"loams configure list", "loams configure set default_stack dev", "loams --profile work configure get output"),
		Commands: []*cli.Command{
			{
				Name: "get", Usage: "Print one setting", ArgsUsage: "KEY",
				Description: describe("", "loams configure get default_stack"),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					key, err := oneArg(cmd, "KEY")
					if err != nil {
						return err
					}
					return runConfigureGet(f, key)
				},
			},
			{
				Name: "set", Usage: "Change one setting", ArgsUsage: "KEY VALUE",
				Description: describe("", "loams configure set secrets file", "loams configure set server_binary /opt/loams/bin/loams-server"),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() != 2 {
						return errs.New(errs.Usage, "usage: loams configure set KEY VALUE", "configure set takes a key and a value")
					}
					return runConfigureEdit(f, cmd.Args().Get(0), cmd.Args().Get(1), false)
				},
			},
			{
				Name: "unset", Usage: "Remove one setting", ArgsUsage: "KEY",
				Description: describe("", "loams configure unset output"),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					key, err := oneArg(cmd, "KEY")
					if err != nil {
						return err
					}
					return runConfigureEdit(f, key, "", true)
				},
			},
			{
				Name: "list", Usage: "Print every setting of the profile",
				Description: describe("", "loams configure list", "loams configure list --output json"),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runConfigureList(f)
				},
			},
		},
	}
}

func joinKeys() string {
	s := ""
	for i, k := range config.KeyNames() {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}

func oneArg(cmd *cli.Command, name string) (string, error) {
	if cmd.Args().Len() != 1 {
		return "", errs.New(errs.Usage, "usage: "+cmd.FullName()+" "+name, "%s takes exactly one %s", cmd.FullName(), name)
	}
	return cmd.Args().First(), nil
}

func runConfigureGet(f *Factory, key string) error {
	if _, ok := config.Keys[key]; !ok {
		return errs.New(errs.Usage, "known keys: "+joinKeys(), "unknown configuration key %q", key).With("key", key)
	}
	p, err := f.Profile()
	if err != nil {
		return err
	}
	v := p.Get(key)
	return f.Printer().Print(output.View{
		JSON: map[string]any{"profile": p.Name, "key": key, "value": v},
		Raw:  v + "\n",
	})
}

func runConfigureEdit(f *Factory, key, value string, unset bool) error {
	h, err := f.Home()
	if err != nil {
		return err
	}
	cfg, err := config.Load(h.Config())
	if err != nil {
		return err
	}
	name := f.Globals.Profile
	if unset {
		if _, ok := cfg.Profile(name); !ok && f.Globals.ProfileExplicit {
			if _, err := f.Profile(); err != nil {
				return err
			}
		}
		err = cfg.Unset(name, key)
	} else {
		err = cfg.Set(name, key, value)
	}
	if err != nil {
		return err
	}
	if err := h.Ensure(); err != nil {
		return err
	}
	if err := cfg.Save(); err != nil {
		return err
	}
	p, _ := cfg.Profile(name)
	return f.Printer().Print(output.View{
		JSON: map[string]any{"profile": name, "key": key, "value": p.Get(key)},
		Rows: [][]string{{key, p.Get(key)}},
	})
}

func runConfigureList(f *Factory) error {
	p, err := f.Profile()
	if err != nil {
		return err
	}
	settings := map[string]string{}
	var rows [][]string
	for _, k := range config.KeyNames() {
		settings[k] = p.Get(k)
		rows = append(rows, []string{k, p.Get(k)})
	}
	return f.Printer().Print(output.View{
		JSON: map[string]any{"profile": p.Name, "settings": settings},
		Rows: rows,
	})
}
