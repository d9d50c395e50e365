package publish

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// TestMain fails the run when a process a test started outlives it.
func TestMain(m *testing.M) { os.Exit(testbin.Main(m)) }

// A bundle built from the real binary unpacks to a 0.3 manifest whose
// mcp_config starts a server answering tools/list; server.json over the
// bundles validates against the registry schema with matching hashes.
func TestBundleAndServerJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := testbin.Loams(t)
	linux, err := BuildBundle(dir, bin, "1.2.3", Platform{"linux", "amd64"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildBundle(dir, bin, "1.2.3", Platform{"windows", "amd64"}); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "LOAMS_HOME="+t.TempDir(), "LOAMS_SECRETS=file")
	m, tools, err := CheckBundle(context.Background(), linux, env)
	if err != nil {
		t.Fatal(err)
	}
	if m.Server.MCPConfig.Command != "${__dirname}/server/loams" || !slices.Contains(tools, "search_docs") || !slices.Contains(tools, "loams_info") {
		t.Fatalf("manifest %+v, tools %v", m, tools)
	}
	// Reproducible: the same binary gives the same bundle.
	first, _ := os.ReadFile(linux)
	again, _ := BuildBundle(t.TempDir(), bin, "1.2.3", Platform{"linux", "amd64"})
	if second, _ := os.ReadFile(again); string(first) != string(second) {
		t.Error("bundle bytes differ between two builds")
	}

	meta, err := os.ReadFile("../../server.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(meta, ""); err != nil {
		t.Fatalf("the repository's server.json: %v", err)
	}
	var metaDoc struct{ Description string }
	json.Unmarshal(meta, &metaDoc)
	if metaDoc.Description != m.Description {
		t.Errorf("server.json says %q, the bundle %q", metaDoc.Description, m.Description)
	}
	doc, err := ServerJSON(meta, dir, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(doc, dir); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	var s struct {
		Packages []struct{ Identifier, FileSha256 string }
	}
	json.Unmarshal(doc, &s)
	if len(s.Packages) != 2 || !strings.HasSuffix(s.Packages[0].Identifier, "/v1.2.3/loams_1.2.3_linux_amd64.mcpb") {
		t.Fatalf("packages %+v", s.Packages)
	}
	// A bundle changed after server.json was written is caught.
	os.WriteFile(linux, append(first, 0), 0o644)
	if err := Validate(doc, dir); err == nil || !strings.Contains(err.Error(), "fileSha256") {
		t.Fatalf("tampered bundle: %v", err)
	}
}

// The vendored schema rejects what the registry rejects.
func TestValidateRefuses(t *testing.T) {
	t.Parallel()
	good := map[string]any{"$schema": SchemaURL, "name": "io.github.ostrium-labs/loams", "description": Description, "version": "1.0.0",
		"packages": []any{map[string]any{"registryType": "mcpb", "identifier": "https://github.com/ostrium-labs/loams/releases/download/v1.0.0/x.mcpb",
			"fileSha256": strings.Repeat("a", 64), "transport": map[string]any{"type": "stdio"}}}}
	check := func(mut func(map[string]any)) error {
		d := map[string]any{}
		b, _ := json.Marshal(good)
		json.Unmarshal(b, &d)
		mut(d)
		b, _ = json.Marshal(d)
		return Validate(b, "")
	}
	if err := check(func(map[string]any) {}); err != nil {
		t.Fatalf("good document refused: %v", err)
	}
	for name, mut := range map[string]func(map[string]any){
		"long description": func(d map[string]any) { d["description"] = strings.Repeat("x", 101) },
		"bad name":         func(d map[string]any) { d["name"] = "loams" },
		"no version":       func(d map[string]any) { delete(d, "version") },
		"bad sha":          func(d map[string]any) { d["packages"].([]any)[0].(map[string]any)["fileSha256"] = "abc" },
		"no sha":           func(d map[string]any) { delete(d["packages"].([]any)[0].(map[string]any), "fileSha256") },
		"latest":           func(d map[string]any) { d["packages"].([]any)[0].(map[string]any)["version"] = "latest" },
		"old schema": func(d map[string]any) {
			d["$schema"] = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json"
		},
	} {
		if err := check(mut); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestUnzipRefusesEscapes(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("../evil")
	w.Write([]byte("x"))
	zw.Close()
	root := t.TempDir()
	bad := filepath.Join(root, "bad.mcpb")
	os.WriteFile(bad, buf.Bytes(), 0o644)
	out := filepath.Join(root, "out")
	os.Mkdir(out, 0o755)
	if err := unzip(bad, out); err == nil || !strings.Contains(err.Error(), "escapes") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "evil")); err == nil {
		t.Fatal("wrote outside the directory")
	}
}
