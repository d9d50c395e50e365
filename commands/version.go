package commands

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/output"
)

type versionOptions struct {
	info buildinfo.Info
}

// versionJSON is the spec's `loams version --output json` document.
type versionJSON struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	Commit       string `json:"commit"`
	BuiltAt      string `json:"built_at"`
	OS           string `json:"os"`
	Arch         string `json:"arch"`
	Go           string `json:"go"`
	DocsVersion  string `json:"docs_version"`
	OutputSchema int    `json:"output_schema"`
}

func newVersionCmd(f *Factory, runF func(*versionOptions) error) *cli.Command {
	return &cli.Command{
		Name:        "version",
		Usage:       "Print the version of loams",
		Description: describe("", "loams version", "loams version --output json"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opts := &versionOptions{info: buildinfo.Get()}
			if runF != nil {
				return runF(opts)
			}
			return runVersion(f, opts)
		},
	}
}

func runVersion(f *Factory, opts *versionOptions) error {
	i := opts.info
	commit, date := orNone(i.Commit), orNone(shortDate(i.BuiltAt))
	return f.Printer().Print(output.View{
		JSON: versionJSON{Name: "loams", Version: i.Version, Commit: i.Commit, BuiltAt: i.BuiltAt,
			OS: i.OS, Arch: i.Arch, Go: i.Go, DocsVersion: i.Version, OutputSchema: 1},
		Raw:      fmt.Sprintf("loams %s (%s, %s, %s/%s)\n", i.Version, shortCommit(commit), date, i.OS, i.Arch),
		TextRows: [][]string{{"loams", i.Version, i.Commit, i.BuiltAt, i.OS, i.Arch, i.Go}},
	})
}

func orNone(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func shortCommit(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

func shortDate(d string) string {
	if len(d) >= 10 {
		return d[:10]
	}
	return d
}
