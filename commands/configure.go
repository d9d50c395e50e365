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
				Name: "list", Usage: "Print every setting in effect and where it comes from",
				Description: describe("Each setting's value in effect and its source: a flag, an environment variable,\n"+
					"the profile in config.toml, or the default.",
					"loams configure list", "loams configure list --output json"),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runConfigureList(f, cmd)
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

func runConfigureList(f *Factory, cmd *cli.Command) error {
	p, err := f.Profile()
	if err != nil {
		return err
	}
	settings, sources := map[string]string{}, map[string]string{}
	var rows, text [][]string
	for _, k := range config.KeyNames() {
		v, from := settingInEffect(f, p, k, cmd)
		settings[k], sources[k] = v, from
		shown := v
		if shown == "" {
			shown = "-"
		}
		rows = append(rows, []string{k, shown, from})
		text = append(text, []string{k, v, from})
	}
	return f.Printer().Print(output.View{
		JSON:     map[string]any{"profile": p.Name, "settings": settings, "sources": sources},
		Header:   []string{"key", "value", "source"},
		Rows:     rows,
		TextRows: text,
	})
}

// settingSource is how one setting resolves: a root flag, then an
// environment variable, then the profile, then the default (empty: none,
// e.g. server_binary means "search the usual places").
type settingSource struct{ flag, env, def string }

func settingSources(key string) settingSource {
	switch key {
	case "output":
		return settingSource{flag: "output", env: "LOAMS_OUTPUT", def: "table"}
	case "secrets":
		return settingSource{env: "LOAMS_SECRETS", def: "auto"}
	case "server_binary":
		return settingSource{env: "LOAMS_SERVER_BINARY"}
	case "endpoint":
		return settingSource{flag: "endpoint", env: "LOAMS_ENDPOINT"}
	case "update_check":
		return settingSource{def: "true"}
	}
	return settingSource{}
}

// settingInEffect is key's value for this run and its source: "flag
// --output", "env LOAMS_OUTPUT", "config" or "default".
func settingInEffect(f *Factory, p config.Profile, key string, cmd *cli.Command) (value, source string) {
	src := settingSources(key)
	switch {
	case src.flag != "" && cmd.IsSet(src.flag):
		return cmd.String(src.flag), "flag --" + src.flag
	case src.env != "" && f.Getenv(src.env) != "":
		return f.Getenv(src.env), "env " + src.env
	case p.Get(key) != "":
		return p.Get(key), "config"
	}
	return src.def, "default"
}
