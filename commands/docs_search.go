package commands

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
)

type docsSearchOptions struct {
	query   string
	limit   int
	docsDir string
}

func newDocsSearchCmd(f *Factory) *cli.Command {
	opts := &docsSearchOptions{}
	return &cli.Command{
		Name:      "search",
		Usage:     "Search the guides and snippets",
		ArgsUsage: "QUERY…",
		Description: describe("Words, variable names (LOAMS_API_KEY), flags (--wait-timeout) and error codes\n"+
			"(port_in_use) all work. --docs-dir searches a directory of Markdown instead.",
			`loams docs search "qdrant port"`, "loams docs search LOAMS_API_KEY --output json",
			"loams docs search --docs-dir ../loams-server/docs flight sql"),
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Value: 5, Usage: "results to show (1–20)", Destination: &opts.limit},
			&cli.StringFlag{Name: "docs-dir", Usage: "search this directory of Markdown (env LOAMS_DOCS_DIR)", Destination: &opts.docsDir},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opts.query = strings.Join(cmd.Args().Slice(), " ")
			if strings.TrimSpace(opts.query) == "" {
				return errs.New(errs.Usage, `pass what to look for, e.g. loams docs search "qdrant port"`, "no query given")
			}
			if opts.limit < 1 || opts.limit > 20 {
				return errs.New(errs.Usage, "use --limit between 1 and 20", "--limit %d is out of range", opts.limit)
			}
			return runDocsSearch(f, opts)
		},
	}
}

func runDocsSearch(f *Factory, opts *docsSearchOptions) error {
	res, err := f.docsBundle(opts.docsDir).Search(opts.query, opts.limit)
	if err != nil {
		return err
	}
	if res.Hint != "" && !f.JSON() {
		f.Notice("%s", res.Hint)
	}
	var rows [][]string
	for _, r := range res.Results {
		rows = append(rows, []string{r.Section, r.URL, r.Excerpt})
	}
	return f.Printer().Print(output.View{JSON: res, Header: []string{"section", "url", "excerpt"}, Rows: rows, Empty: "no results"})
}
