package commands

import "github.com/urfave/cli/v3"

func newMCPCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "Serve loams to coding agents over MCP and register it with them",
		Description: describe("", "loams mcp serve", "loams mcp install --agent claude-code",
			"loams mcp doctor", "loams mcp tools --output json"),
		Commands: []*cli.Command{
			newMCPServeCmd(f),
			newMCPInstallCmd(f),
			newMCPUninstallCmd(f),
			newMCPDoctorCmd(f),
			newMCPToolsCmd(f),
		},
	}
}
