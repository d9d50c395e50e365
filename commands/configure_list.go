package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/output"
)

type configureListOptions struct {
	// Flags are the root flags given on this command line that a setting
	// can come from (--output, --endpoint), by name.
	Flags map[string]string
}

func newConfigureListCmd(f *Factory) *cli.Command {
	opts := &configureListOptions{}
	return &cli.Command{
		Name: "list", Usage: "Print every setting in effect and where it comes from",
		Description: describe("Each setting's value in effect and its source: a flag, an environment variable,\n"+
			"the profile in config.toml, or the default.",
			"loams configure list", "loams configure list --output json"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opts.Flags = map[string]string{}
			for _, k := range config.KeyNames() {
				if fl := settingSources(k).flag; fl != "" && cmd.IsSet(fl) {
					opts.Flags[fl] = cmd.String(fl)
				}
			}
			return runConfigureList(ctx, f, opts)
		},
	}
}

func runConfigureList(ctx context.Context, f *Factory, opts *configureListOptions) error {
	p, err := f.Profile()
	if err != nil {
		return err
	}
	settings, sources := map[string]string{}, map[string]string{}
	var rows, text [][]string
	for _, k := range config.KeyNames() {
		v, from := settingInEffect(f, p, k, opts.Flags)
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
func settingInEffect(f *Factory, p config.Profile, key string, flags map[string]string) (value, source string) {
	src := settingSources(key)
	switch {
	case src.flag != "" && isSet(flags, src.flag):
		return flags[src.flag], "flag --" + src.flag
	case src.env != "" && f.Getenv(src.env) != "":
		return f.Getenv(src.env), "env " + src.env
	case p.Get(key) != "":
		return p.Get(key), "config"
	}
	return src.def, "default"
}

func isSet(flags map[string]string, name string) bool {
	_, ok := flags[name]
	return ok
}
