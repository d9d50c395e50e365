package commands

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/iostreams"
)

const referencePath = "../docs/guides/reference/cli.md"

// The CLI reference in the docs is generated from the command tree; this
// test fails when it is stale. LOAMS_UPDATE_REFERENCE=1 rewrites it.
func TestReferenceIsCurrent(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &Factory{IO: ios, Getenv: func(string) string { return "" }}
	var b bytes.Buffer
	b.WriteString("# CLI reference\n\nGenerated from the command tree (`LOAMS_UPDATE_REFERENCE=1 go test ./commands -run Reference`).\n\n")
	root := NewRoot(f)
	b.WriteString("## Global flags\n\n")
	writeFlags(&b, root.Flags)
	for _, c := range root.Commands {
		writeCommand(&b, c, "loams")
	}
	if os.Getenv("LOAMS_UPDATE_REFERENCE") != "" {
		if err := os.MkdirAll("../docs/guides/reference", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(referencePath, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		// The docs index embeds the reference too: refresh it with it.
		index, err := docsindex.Encode(os.DirFS("../docs"))
		if err == nil {
			err = os.WriteFile("../docsindex/prebuilt.idx", index, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(referencePath)
	if err != nil || !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("%s is stale; run LOAMS_UPDATE_REFERENCE=1 go test ./commands -run Reference (it refreshes docsindex/prebuilt.idx too)", referencePath)
	}
}

func writeCommand(b *bytes.Buffer, c *cli.Command, parent string) {
	if c.Hidden {
		return
	}
	path := parent + " " + c.Name
	fmt.Fprintf(b, "## %s\n\n%s.\n\n", path, strings.TrimSuffix(c.Usage, "."))
	if len(c.Aliases) > 0 {
		fmt.Fprintf(b, "Alias: `%s`.\n\n", strings.Join(c.Aliases, "`, `"))
	}
	if c.Description != "" {
		fmt.Fprintf(b, "```text\n%s\n```\n\n", strings.TrimSpace(c.Description))
	}
	writeFlags(b, c.Flags)
	for _, sub := range c.Commands {
		writeCommand(b, sub, path)
	}
}

func writeFlags(b *bytes.Buffer, flags []cli.Flag) {
	var rows []string
	for _, fl := range flags {
		names := fl.Names()
		if names[0] == "help" {
			continue
		}
		spelled := "`--" + names[0] + "`"
		for _, a := range names[1:] {
			if len(a) == 1 {
				spelled += ", `-" + a + "`"
			} else {
				spelled += ", `--" + a + "`"
			}
		}
		usage, def := "", ""
		if d, ok := fl.(cli.DocGenerationFlag); ok {
			usage = d.GetUsage()
			if v := d.GetDefaultText(); v != "" && v != `""` && v != "false" && v != "0" {
				def = " (default " + v + ")"
			}
		}
		rows = append(rows, fmt.Sprintf("| %s | %s%s |", spelled, strings.ReplaceAll(usage, "|", "\\|"), def))
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("| Flag | Meaning |\n|---|---|\n")
	b.WriteString(strings.Join(rows, "\n") + "\n\n")
}
