package mcpserve

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"loams.dev/cli/internal/plainjson"
	"loams.dev/cli/mcpserve/front"
)

// The tool list is the same for every client of a binary, and the largest
// answer of a start (14 KiB with the output schemas). Going through the
// SDK costs about a millisecond of a 3-5 ms cold start: registering the
// tools (the SDK round-trips each schema through JSON), marshalling the
// list by reflection, and the front re-reading the answer. So the front
// answers a plain tools/list itself, from the list prepared at `go
// generate` time (generatedToolList, schemas_gen.go) with the binary's
// serverInfo spliced in. TestPreparedToolsListEqualsTheSDKs holds the
// bytes to what the SDK answers, under both protocol generations.

// preparedToolsList returns the answer to in when it is a tools/list the
// front may answer itself (no cursor; under 2026-07-28, the version we
// speak and the client's capabilities given), else nil: the SDK answers,
// errors included.
func (s *Server) preparedToolsList(in front.Request) []byte {
	if in.Method != "tools/list" || s.opts.noPrepared || len(generatedToolDefs) == 0 {
		return nil
	}
	var p struct {
		Cursor *string                    `json:"cursor"`
		Meta   map[string]json.RawMessage `json:"_meta"`
	}
	if len(in.Params) > 0 && json.Unmarshal(in.Params, &p) != nil || p.Cursor != nil {
		return nil
	}
	if !in.Stateless {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"tools":%s}}`, in.ID, s.toolListJSON())
	}
	if string(p.Meta[front.MetaVersion]) != `"2026-07-28"` || len(p.Meta[front.MetaCapabilities]) == 0 {
		return nil
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":%s},"ttlMs":%d,"cacheScope":"public","tools":%s}}`,
		in.ID, s.serverInfoJSON(), listTTL, s.toolListJSON())
}

// toolDef is one tool of the prepared list.
type toolDef struct{ name, json string }

// toolListJSON is the tools array for the access mode: the prepared
// definitions of the tools it exposes, in the SDK's order.
func (s *Server) toolListJSON() string {
	s.toolListOnce.Do(func() {
		var b strings.Builder
		b.WriteByte('[')
		for _, d := range generatedToolDefs {
			if s.opts.Access.allows(d.name) {
				if b.Len() > 1 {
					b.WriteByte(',')
				}
				b.WriteString(s.words().Text(d.json)) // descriptions name only enabled tools
			}
		}
		b.WriteByte(']')
		s.toolList = b.String()
	})
	return s.toolList
}

// serverInfoJSON is the serverInfo every 2026-07-28 result carries.
func (s *Server) serverInfoJSON() []byte {
	s.serverInfoOnce.Do(func() {
		s.serverInfo, _ = plainjson.Marshal(map[string]string{"name": "loams", "title": "Loams", "version": s.opts.Build.Version})
	})
	return s.serverInfo
}

// preparedState is the Server's share of the above.
type preparedState struct {
	serverInfoOnce sync.Once
	serverInfo     []byte
	toolListOnce   sync.Once
	toolList       string
}
