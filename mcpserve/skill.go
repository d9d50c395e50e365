package mcpserve

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/plainjson"
	"loams.dev/cli/mcpserve/front"
)

// skillTemplate is the loams skill (Agent Skills format): what `mcp
// install --with-skill` writes into each host's skills folder, and what
// the server serves by the MCP Skills extension (SEP-2640). Both come from
// Skill, so the file and the served copy name the same tools.
//
//go:embed skill.md
var skillTemplate string

// SkillURI is the skill's SKILL.md as a resource: skill://<name>/SKILL.md.
const SkillURI = "skill://loams/SKILL.md"

// skillsExtension is the capability key of the Skills extension.
const skillsExtension = "io.modelcontextprotocol/skills"

// skillName and skillDescription are the skill's frontmatter, which
// skills/list carries verbatim (TestSkillFrontmatterIsTheFiles holds them
// to the file).
const (
	skillName        = "loams"
	skillDescription = "Set up an app with Loams through the loams MCP tools - local stacks, their connection settings in .env.loams, SDK packages and tested code. Use when the user's app talks to Loams, asks about its ports, variables, engines or errors, or needs a stack."
)

// Skill renders SKILL.md for the tools this server's mode enables, with
// their descriptions as the mode shows them.
func (s *Server) Skill() []byte {
	s.skillOnce.Do(func() {
		var tools []*mcp.Tool
		for _, t := range s.enabledTools() {
			tools = append(tools, s.forMode(t.def))
		}
		limited := s.words().Disabled() != nil
		s.skill = []byte(renderForMode(skillTemplate, s.words(), map[string]any{"Tools": tools, "Limited": limited}))
	})
	return s.skill
}

// skillEntry is a Skill of SEP-2640: the frontmatter verbatim and every
// file of the skill (one here) with its digest and size.
type skillEntry struct {
	URI         string            `json:"uri"`
	Frontmatter map[string]string `json:"frontmatter"`
	Resources   []skillFile       `json:"resources"`
}

type skillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int    `json:"size"`
}

func (s *Server) skillEntry() skillEntry {
	body := s.Skill()
	sum := sha256.Sum256(body)
	return skillEntry{URI: SkillURI, Frontmatter: map[string]string{"name": skillName, "description": skillDescription},
		Resources: []skillFile{{URI: SkillURI, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: len(body)}}}
}

// skillResource is the SKILL.md as resources/list shows it.
func (s *Server) skillResource() *mcp.Resource {
	return &mcp.Resource{URI: SkillURI, Name: skillName, Title: "Loams skill", Description: skillDescription,
		MIMEType: "text/markdown", Size: int64(len(s.Skill()))}
}

// answerSkills answers skills/list and skills/get (SEP-2640), which the
// SDK (v1.8.0) does not know; nil for any other method. Both results are
// cacheable for the life of the binary, like the tool list (2026-07-28
// clients are told so).
func (s *Server) answerSkills(in front.Request) []byte {
	if in.Method != "skills/list" && in.Method != "skills/get" || in.Stateless && !s.statelessOK(in) {
		return nil // the SDK answers, errors included
	}
	var result any
	switch in.Method {
	case "skills/list":
		var p struct {
			Cursor *string `json:"cursor"`
		}
		if len(in.Params) > 0 && json.Unmarshal(in.Params, &p) != nil {
			return rpcErrorLine(in.ID, -32602, "invalid params: params must be an object", nil)
		}
		if p.Cursor != nil && *p.Cursor != "" {
			return rpcErrorLine(in.ID, -32602, "invalid params: unknown cursor; list again without one", nil)
		}
		result = map[string]any{"skills": []skillEntry{s.skillEntry()}}
	case "skills/get":
		var p struct {
			URI string `json:"uri"`
		}
		if len(in.Params) == 0 || json.Unmarshal(in.Params, &p) != nil || p.URI == "" {
			return rpcErrorLine(in.ID, -32602, "invalid params: skills/get takes {\"uri\": \""+SkillURI+"\"}", nil)
		}
		if p.URI != SkillURI {
			return rpcErrorLine(in.ID, -32602, "invalid params: no skill at "+front.Clip(p.URI, 200), map[string]any{"uri": front.Clip(p.URI, 200), "skills": []string{SkillURI}})
		}
		result = map[string]any{"skill": s.skillEntry()}
	default:
		return nil
	}
	// The 2026-07-28 fields, as the SDK's own results carry them: the
	// older revisions have none (spec mcp.md; SEP-2640 gates them alike).
	if in.Stateless {
		r := result.(map[string]any)
		r["resultType"], r["ttlMs"], r["cacheScope"] = "complete", listTTL, "public"
		r["_meta"] = map[string]json.RawMessage{"io.modelcontextprotocol/serverInfo": s.serverInfoJSON()}
	}
	data, err := plainjson.Marshal(result)
	if err != nil {
		return rpcErrorLine(in.ID, -32603, "internal error: the skill could not be encoded", nil)
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":%s}`, in.ID, data)
}

// statelessOK reports whether a 2026-07-28 request carries the version we
// speak and the client's capabilities, as the SDK requires.
func (s *Server) statelessOK(in front.Request) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	return json.Unmarshal(in.Params, &p) == nil && string(p.Meta[front.MetaVersion]) == `"2026-07-28"` && len(p.Meta[front.MetaCapabilities]) > 0
}

func rpcErrorLine(id json.RawMessage, code int, msg string, data any) []byte {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	b, _ := plainjson.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
	return b
}

// skillState is the Server's share of the above.
type skillState struct {
	skillOnce sync.Once
	skill     []byte
}
