package mcpserve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"loams.dev/cli/docsindex"
)

// docsFiles counts the bundle's guides and snippets on disk.
func docsFiles(t *testing.T) int {
	n := 0
	filepath.WalkDir("../docs", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.Contains(p, "/snippets/") || strings.HasSuffix(p, ".md") && strings.Contains(p, "/guides/")) {
			n++
		}
		return nil
	})
	return n
}

// The docs are resources under both protocol generations: listed in pages,
// read whole or by section, with the template and the capability.
func TestDocsResources(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		s := startSession(t, t.TempDir())
		s.stateless = stateless
		if !stateless {
			init := s.request("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
				"clientInfo": map[string]any{"name": "t", "version": "1"}})
			caps, _ := json.Marshal(init["capabilities"].(map[string]any)["resources"])
			if string(caps) != "{}" {
				t.Errorf("resources capability %s, want {} (no listChanged, no subscribe)", caps)
			}
		} else {
			disc := s.request("server/discover", nil)
			if _, ok := disc["capabilities"].(map[string]any)["resources"]; !ok {
				t.Errorf("server/discover does not advertise resources: %v", disc["capabilities"])
			}
		}
		var uris []string
		cursor, pages := "", 0
		for {
			params := map[string]any{}
			if cursor != "" {
				params["cursor"] = cursor
			}
			list := s.request("resources/list", params)
			pages++
			for _, r := range list["resources"].([]any) {
				res := r.(map[string]any)
				uri, _ := res["uri"].(string)
				if uri == SkillURI {
					continue // the skill (skill_test.go), listed first
				}
				if !strings.HasPrefix(uri, "loams://docs/") || res["mimeType"] == nil || res["name"] == nil {
					t.Errorf("resource %v", res)
				}
				uris = append(uris, uri)
			}
			if _, ttl := list["ttlMs"]; ttl != stateless {
				t.Errorf("stateless=%v: ttlMs present %v", stateless, ttl)
			}
			if cursor, _ = list["nextCursor"].(string); cursor == "" {
				break
			}
		}
		// One page: Qwen Code and Crush read only the first.
		if want := docsFiles(t); len(uris) != want || pages != 1 {
			t.Errorf("stateless=%v: %d resources in %d pages, want %d in one page", stateless, len(uris), pages, want)
		}
		// Gemini CLI reads only URIs the list names exactly: every search
		// result carries its page's.
		found := s.request("tools/call", map[string]any{"name": "search_docs", "arguments": map[string]any{"query": "qdrant port python"}})
		if data, _ := json.Marshal(found); strings.Contains(string(data), "asks:") {
			t.Errorf("search_docs shows a section's asks comment: %s", data)
		}
		for _, r := range found["structuredContent"].(map[string]any)["results"].([]any) {
			if page, _ := r.(map[string]any)["page_uri"].(string); !slices.Contains(uris, page) {
				t.Errorf("search result page_uri %q is not a listed resource", page)
			}
		}
		tmpl := s.request("resources/templates/list", nil)
		if data, _ := json.Marshal(tmpl); !strings.Contains(string(data), `"uriTemplate":"loams://docs/{path}"`) {
			t.Errorf("templates: %s", data)
		}

		guide, _ := os.ReadFile("../docs/guides/engines/qdrant.md")
		guide = []byte(docsindex.StripAsks(string(guide))) // the index's asks comments are never served
		for _, uri := range []string{"loams://docs/guides/engines/qdrant.md", "loams://docs/guides%2Fengines%2Fqdrant.md"} {
			read := s.request("resources/read", map[string]any{"uri": uri})
			c := read["contents"].([]any)[0].(map[string]any)
			if c["text"] != string(guide) || c["mimeType"] != "text/markdown" {
				t.Errorf("stateless=%v: read %s: %v, %d bytes", stateless, uri, c["mimeType"], len(c["text"].(string)))
			}
		}
		sec := s.request("resources/read", map[string]any{"uri": "loams://docs/guides/engines/qdrant.md#connect-with-qdrant-client"})
		c := sec["contents"].([]any)[0].(map[string]any)
		if text, _ := c["text"].(string); !strings.HasPrefix(text, "## Connect with qdrant-client\n\nConnect the official Qdrant client") || !strings.Contains(text, "```python\n") || strings.Contains(text, "## Namespaces") {
			t.Errorf("section read: %q", text)
		}
		snip := s.request("resources/read", map[string]any{"uri": "loams://docs/snippets/qdrant/python/connect.py"})
		if c := snip["contents"].([]any)[0].(map[string]any); c["mimeType"] != "text/x-python" {
			t.Errorf("snippet mime type %v", c["mimeType"])
		}
		if _, err := s.send("resources/read", map[string]any{"uri": "loams://docs/guides/nope.md"}); err == nil ||
			int64(err.Code) != jsonrpc.CodeInvalidParams || !strings.Contains(string(err.Data), "call search_docs") {
			t.Errorf("unknown page: %+v, want %d with a hint", err, jsonrpc.CodeInvalidParams)
		}
		if _, err := s.send("resources/list", map[string]any{"cursor": "zz"}); err == nil || err.Code != -32602 {
			t.Errorf("bad cursor: %+v, want -32602", err)
		}
	}
}
