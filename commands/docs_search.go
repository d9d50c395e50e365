package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/urfave/cli/v3"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
)

type docsSearchOptions struct {
	query    string
	limit    int
	maxBytes int
	docsDir  string
}

func newDocsSearchCmd(f *Factory) *cli.Command {
	opts := &docsSearchOptions{}
	return &cli.Command{
		Name:      "search",
		Usage:     "Search the guides and snippets",
		ArgsUsage: "QUERY…",
		Description: describe("Words, variable names (LOAMS_API_KEY), flags (--wait-timeout) and error codes\n"+
			"(port_in_use) all work. `loams docs show URI` prints a result whole; --output json carries\n"+
			"the best sections whole (within --max-bytes), as search_docs returns them to agents.\n"+
			"--docs-dir searches a directory of Markdown instead.",
			`loams docs search "qdrant port"`, "loams docs search LOAMS_API_KEY --output json",
			"loams docs search --docs-dir ../loams-server/docs flight sql"),
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Value: 5, Usage: "results to show (1–20)", Destination: &opts.limit},
			&cli.IntFlag{Name: "max-bytes", Value: docsindex.DefaultMaxBytes, Usage: "Markdown budget of --output json (1024–24576)", Destination: &opts.maxBytes},
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
			if opts.maxBytes < docsindex.MinMaxBytes || opts.maxBytes > docsindex.MaxMaxBytes {
				return errs.New(errs.Usage, "use --max-bytes between 1024 and 24576", "--max-bytes %d is out of range", opts.maxBytes)
			}
			return runDocsSearch(f, opts)
		},
	}
}

func runDocsSearch(f *Factory, opts *docsSearchOptions) error {
	res, err := f.docsBundle(opts.docsDir).Search(opts.query, opts.limit, opts.maxBytes)
	if err != nil {
		return err
	}
	if res.Hint != "" && !f.JSON() {
		f.Notice("%s", res.Hint)
	}
	if width := f.termWidth(); f.Globals.Output == output.Table && width > 0 && len(res.Results) > 0 {
		_, err := fmt.Fprint(f.IO.Out, searchCards(res.Results, width, lipgloss.NewRenderer(f.IO.Out), f.colorOn()))
		return err
	}
	var rows [][]string
	for _, r := range res.Results {
		rows = append(rows, []string{r.Section, r.URI, r.Summary()})
	}
	return f.Printer().Print(output.View{JSON: res, Header: []string{"section", "uri", "excerpt"}, Rows: rows, Empty: "no results"})
}

// searchCards lays results out for a terminal of the given width: the
// section, what to pass to `loams docs show` to read it whole, and up to
// two lines of excerpt, each cut to the width (a table of three columns
// cannot fit a reference and an excerpt in 80 columns). The reference is
// never cut: a cut one cannot be used.
func searchCards(results []docsindex.Result, width int, r *lipgloss.Renderer, color bool) string {
	title, dim := r.NewStyle(), r.NewStyle()
	if color {
		title, dim = title.Bold(true), dim.Faint(true)
	}
	var b strings.Builder
	for i, res := range results {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(title.Render(fit(res.Section, width)) + "\n")
		b.WriteString(dim.Render("  "+strings.TrimPrefix(res.URI, docsindex.URIPrefix)) + "\n")
		for _, line := range wrap(res.Summary(), width-2, 2) {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}

// wrap breaks text into at most n lines of width cells on word boundaries;
// the last line is cut with an ellipsis when text goes on.
func wrap(text string, width, n int) []string {
	width = max(width, 10)
	var lines []string
	cur := ""
	words := strings.Fields(text)
	for i, w := range words {
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if lipgloss.Width(next) <= width {
			cur = next
			continue
		}
		if len(lines) == n-1 {
			return append(lines, fit(cur+" "+strings.Join(words[i:], " "), width))
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		cur = fit(w, width)
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
