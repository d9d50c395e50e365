package commands

import "github.com/urfave/cli/v3"

func newPkgCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "pkg",
		Usage: "Add Loams SDK packages to your project with its own package manager",
		Description: describe("The package manager is chosen from the project's lockfiles and manifests\n"+
			"(pnpm, bun, yarn, npm, uv, poetry, cargo, go), and versions are pinned to\n"+
			"this CLI's minor version.",
			"loams pkg add sdk", "loams pkg add sdk live --dry-run"),
		Commands: []*cli.Command{newPkgAddCmd(f, nil)},
	}
}
