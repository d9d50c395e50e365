package commands

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
)

func newMCPToolsCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "List the tools that `loams mcp serve` offers",
		Description: describe("With --output json, prints the exact tools array of tools/list, input\n"+
			"schemas included.",
			"loams mcp tools", "loams mcp tools --output json"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runMCPTools(f)
		},
	}
}

func runMCPTools(f *Factory) error {
	srv, closeFn, err := f.mcpServer(&mcpServeOptions{})
	if err != nil {
		return err
	}
	defer closeFn()
	tools := srv.Tools()
	rows := make([][]string, 0, len(tools))
	for _, t := range tools {
		rows = append(rows, []string{t.Name, t.Title, firstSentence(t.Description)})
	}
	return f.Printer().Print(output.View{
		JSON:   map[string][]*mcp.Tool{"tools": tools},
		Header: []string{"name", "title", "description"},
		Rows:   rows,
	})
}

// firstSentence keeps a table row to one line.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}
