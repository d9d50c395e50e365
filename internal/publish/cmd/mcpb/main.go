// Command mcpb builds and checks what the release publishes for agents:
//
//	mcpb bundle --binary PATH --os OS --arch ARCH --version V --out DIR   (a goreleaser post-build hook)
//	mcpb server-json --dir DIR --version V [--meta server.json]           (writes DIR/server.json)
//	mcpb validate --dir DIR                                               (schema + hashes of DIR/server.json)
//	mcpb check BUNDLE                                                     (unpack, manifest, tools/list)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"loams.dev/cli/internal/publish"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "mcpb:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: mcpb bundle|server-json|validate|check …")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	binary := fs.String("binary", "", "the built loams binary")
	goos := fs.String("os", "", "its GOOS")
	goarch := fs.String("arch", "", "its GOARCH")
	version := fs.String("version", "", "the release version (no v)")
	out := fs.String("out", "dist/mcpb", "where bundles go")
	dir := fs.String("dir", "dist/mcpb", "the bundles' directory")
	meta := fs.String("meta", "server.json", "the repository's server.json (name, description, links)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "bundle":
		path, err := publish.BuildBundle(*out, *binary, *version, publish.Platform{OS: *goos, Arch: *goarch})
		if err == nil {
			fmt.Println(path)
		}
		return err
	case "server-json":
		m, err := os.ReadFile(*meta)
		if err != nil {
			return err
		}
		doc, err := publish.ServerJSON(m, *dir, *version)
		if err != nil {
			return err
		}
		if err := publish.Validate(doc, *dir); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(*dir, "server.json"), doc, 0o644)
	case "validate":
		doc, err := os.ReadFile(filepath.Join(*dir, "server.json"))
		if err != nil {
			return err
		}
		if err := publish.Validate(doc, *dir); err != nil {
			return err
		}
		fmt.Println("server.json: valid against", publish.SchemaURL)
		return nil
	case "check":
		if fs.NArg() != 1 {
			return fmt.Errorf("usage: mcpb check BUNDLE")
		}
		m, tools, err := publish.CheckBundle(context.Background(), fs.Arg(0), os.Environ())
		if err != nil {
			return err
		}
		fmt.Printf("%s: manifest %s, %s %s, tools/list: %d tools %v\n", filepath.Base(fs.Arg(0)), m.ManifestVersion, m.Name, m.Version, len(tools), tools)
		return nil
	}
	return fmt.Errorf("unknown command %q", args[0])
}
