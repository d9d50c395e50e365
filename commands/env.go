package commands

import "github.com/urfave/cli/v3"

func newEnvCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "env",
		Usage: "Print or write a stack's connection settings for your app",
		Description: describe("Your app reads LOAMS_URL, LOAMS_API_KEY and the engines' URLs from .env.loams\n"+
			"(or from a block merged into your own .env).",
			"loams env export", "loams env export --write .env.loams", "eval \"$(loams env export --format shell)\""),
		Commands: []*cli.Command{newEnvExportCmd(f, nil)},
	}
}
