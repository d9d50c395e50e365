package publish

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"loams.dev/cli/internal/filehash"
)

//go:embed server.schema.json
var schemaJSON []byte

// SchemaURL is the registry schema server.json follows (vendored copy).
const SchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// DownloadBase is where the release's assets are served.
const DownloadBase = "https://github.com/ostrium-labs/loams/releases/download"

var bundleRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^loams_(.+)_([a-z0-9]+)_([a-z0-9]+)\.mcpb$`) })

// ServerJSON describes the release for the registry: the repository's
// server.json (meta: name, title, description, links) with the release's
// version and one mcpb package per bundle found in dir, each with the
// SHA-256 of its bytes.
func ServerJSON(meta []byte, dir, version string) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(meta, &doc); err != nil {
		return nil, fmt.Errorf("server.json: %v", err)
	}
	names, err := filepath.Glob(filepath.Join(dir, "loams_*.mcpb"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var packages []map[string]any
	for _, path := range names {
		m := bundleRE().FindStringSubmatch(filepath.Base(path))
		if m == nil || m[1] != version {
			continue
		}
		sum, err := filehash.SHA256(path)
		if err != nil {
			return nil, err
		}
		packages = append(packages, map[string]any{
			"registryType": "mcpb",
			"identifier":   fmt.Sprintf("%s/v%s/%s", DownloadBase, version, filepath.Base(path)),
			"version":      version,
			"fileSha256":   sum,
			"transport":    map[string]string{"type": "stdio"},
		})
	}
	if len(packages) == 0 {
		return nil, fmt.Errorf("no loams_%s_*.mcpb bundle in %s", version, dir)
	}
	doc["version"], doc["packages"] = version, packages
	// The registry's documented key order, then anything else sorted: a
	// reviewer reads name and version first.
	var b bytes.Buffer
	b.WriteString("{\n")
	keys := []string{"$schema", "name", "title", "description", "version", "websiteUrl", "repository", "icons", "remotes", "packages", "_meta"}
	var rest []string
	for k := range doc {
		if !slices.Contains(keys, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	first := true
	for _, k := range append(keys, rest...) {
		v, ok := doc[k]
		if !ok {
			continue
		}
		if !first {
			b.WriteString(",\n")
		}
		first = false
		kb, _ := json.Marshal(k)
		vb, err := json.MarshalIndent(v, "  ", "  ")
		if err != nil {
			return nil, err
		}
		b.WriteString("  ")
		b.Write(kb)
		b.WriteString(": ")
		b.Write(vb)
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// Validate checks a server.json against the vendored registry schema and
// the rules the schema leaves to the registry: a description of at most
// 100 characters, and every mcpb package carrying a fileSha256 that
// matches its bundle in dir (when dir is given).
func Validate(doc []byte, dir string) error {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	schema, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return err
	}
	if err := c.AddResource(SchemaURL, schema); err != nil {
		return err
	}
	sch, err := c.Compile(SchemaURL)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("server.json is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("server.json does not follow %s: %v", SchemaURL, err)
	}
	var s struct {
		Schema      string `json:"$schema"`
		Description string `json:"description"`
		Packages    []struct {
			RegistryType, Identifier, FileSha256 string
		} `json:"packages"`
	}
	json.Unmarshal(doc, &s)
	if s.Schema != SchemaURL {
		return fmt.Errorf("$schema is %q, want %s", s.Schema, SchemaURL)
	}
	if n := len([]rune(s.Description)); n > 100 {
		return fmt.Errorf("description has %d characters; the registry allows 100", n)
	}
	for _, p := range s.Packages {
		if p.RegistryType != "mcpb" {
			continue
		}
		if p.FileSha256 == "" {
			return fmt.Errorf("mcpb package %s has no fileSha256", p.Identifier)
		}
		if dir == "" {
			continue
		}
		sum, err := filehash.SHA256(filepath.Join(dir, filepath.Base(p.Identifier)))
		if err != nil {
			return err
		}
		if sum != p.FileSha256 {
			return fmt.Errorf("%s: fileSha256 %s, but the bundle's is %s", p.Identifier, p.FileSha256, sum)
		}
	}
	return nil
}
