package mcpserve

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// Issue 30: the Skills extension (SEP-2640) over raw JSON-RPC through the
// built binary: advertised, skills/list and skills/get give the entry
// (frontmatter verbatim, every file with its digest and size), the file is
// a skill:// resource whose bytes match the digest, and an unknown skill
// is -32602.
func TestSkillsExtension(t *testing.T) {
	t.Parallel()
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	tr := run(t, lines(initLine, initDone,
		`{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"skills/get","params":{"uri":"skill://loams/SKILL.md"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"skill://loams/SKILL.md"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"skills/get","params":{"uri":"skill://other/SKILL.md"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"skills/get","params":{}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":8,"method":"server/discover","params":{`+meta+`}}`,
		`{"jsonrpc":"2.0","id":9,"method":"skills/list","params":{`+meta+`}}`,
	))
	var init struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	json.Unmarshal(tr.byID["1"].Result, &init)
	if string(init.Capabilities["extensions"]) != `{"io.modelcontextprotocol/skills":{}}` || init.Capabilities["resources"] == nil {
		t.Errorf("initialize capabilities: %s", tr.byID["1"].Result)
	}
	type entry struct {
		URI         string            `json:"uri"`
		Frontmatter map[string]string `json:"frontmatter"`
		Resources   []struct {
			URI    string `json:"uri"`
			Digest string `json:"digest"`
			Size   int    `json:"size"`
		} `json:"resources"`
	}
	var list struct {
		ResultType string  `json:"resultType"`
		Skills     []entry `json:"skills"`
		TTLMs      int     `json:"ttlMs"`
		CacheScope string  `json:"cacheScope"`
	}
	// The old handshake's answer has no 2026-07-28 fields.
	if err := json.Unmarshal(tr.byID["2"].Result, &list); err != nil || len(list.Skills) != 1 || list.ResultType != "" || list.TTLMs != 0 || list.CacheScope != "" {
		t.Fatalf("skills/list: %v %s", err, tr.byID["2"].Result)
	}
	var get struct {
		ResultType string `json:"resultType"`
		Skill      entry  `json:"skill"`
	}
	json.Unmarshal(tr.byID["3"].Result, &get)
	sk := list.Skills[0]
	if got, _ := json.Marshal(get.Skill); string(got) != string(mustMarshal(sk)) {
		t.Errorf("skills/get differs from the listed entry: %s", tr.byID["3"].Result)
	}
	var read struct {
		Contents []struct{ URI, MIMEType, Text string } `json:"contents"`
	}
	json.Unmarshal(tr.byID["4"].Result, &read)
	if len(read.Contents) != 1 || read.Contents[0].MIMEType != "text/markdown" {
		t.Fatalf("resources/read: %s", tr.byID["4"].Result)
	}
	text := read.Contents[0].Text
	sum := sha256.Sum256([]byte(text))
	if sk.URI != SkillURI || len(sk.Resources) != 1 || sk.Resources[0].URI != SkillURI ||
		sk.Resources[0].Digest != "sha256:"+hex.EncodeToString(sum[:]) || sk.Resources[0].Size != len(text) {
		t.Errorf("the entry does not describe the file: %+v (file %d bytes)", sk, len(text))
	}
	// The frontmatter is the file's, verbatim; the URI ends in its name.
	front := strings.SplitN(strings.TrimPrefix(text, "---\n"), "\n---\n", 2)[0]
	want := map[string]string{}
	for _, l := range strings.Split(front, "\n") {
		k, v, _ := strings.Cut(l, ": ")
		want[k] = v
	}
	if string(mustMarshal(want)) != string(mustMarshal(sk.Frontmatter)) || !strings.HasSuffix(sk.URI, "/"+want["name"]+"/SKILL.md") {
		t.Errorf("frontmatter %v, file's %v", sk.Frontmatter, want)
	}
	if len(want["description"]) > 1024 {
		t.Errorf("description is %d characters; hosts take at most 1024", len(want["description"]))
	}
	for _, id := range []string{"5", "6"} {
		if e := tr.byID[id].Error; e == nil || e.Code != -32602 {
			t.Errorf("id %s: want -32602, got %+v", id, tr.byID[id])
		}
	}
	if !strings.Contains(string(tr.byID["7"].Result), `"uri":"skill://loams/SKILL.md"`) {
		t.Errorf("resources/list does not list the skill")
	}
	if !strings.Contains(string(tr.byID["8"].Result), `"io.modelcontextprotocol/skills":{}`) {
		t.Errorf("server/discover does not advertise the extension: %s", tr.byID["8"].Result)
	}
	if r := string(tr.byID["9"].Result); !strings.Contains(r, `"resultType":"complete"`) || !strings.Contains(r, `"io.modelcontextprotocol/serverInfo"`) ||
		!strings.Contains(r, `"cacheScope":"public"`) || !strings.Contains(r, `"ttlMs":86400000`) {
		t.Errorf("stateless skills/list: %s", r)
	}
}

// The skill text: front matter a host accepts, the enabled tools with
// their descriptions, and the rules (keys, .env.loams, the target rule).
func TestSkillContent(t *testing.T) {
	t.Parallel()
	tr := run(t, wordsProbe([]string{"search_docs", "env_export"}), withArgs("--tools", "search_docs,env_export"))
	var read struct {
		Contents []struct{ Text string } `json:"contents"`
	}
	json.Unmarshal(tr.byID["4"].Result, &read)
	got := read.Contents[0].Text
	for _, want := range []string{"---\nname: loams\ndescription: ", "- `search_docs` (reads only): Search this version's",
		"- `env_export` (changes the project or the machine): Write", "The other loams tools are not enabled",
		"Keys never pass through you", "loams.toml", "stack_ambiguous", "ask the user to run `loams stack create NAME`"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "get_sdk_snippet") || strings.Contains(got, "`stack_create`") {
		t.Errorf("the skill names a left-out tool:\n%s", got)
	}
}
