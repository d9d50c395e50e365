package mcpserve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
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
func (s *Server) preparedToolsList(in *inbound) []byte {
	if in.method != "tools/list" || s.noPrepared || len(generatedToolDefs) == 0 {
		return nil
	}
	var p struct {
		Cursor *string                    `json:"cursor"`
		Meta   map[string]json.RawMessage `json:"_meta"`
	}
	if len(in.params) > 0 && json.Unmarshal(in.params, &p) != nil || p.Cursor != nil {
		return nil
	}
	if !in.stateless {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"tools":%s}}`, in.id, s.toolListJSON())
	}
	if string(p.Meta[metaVersion]) != `"2026-07-28"` || len(p.Meta[metaCapabilities]) == 0 {
		return nil
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":%s},"ttlMs":%d,"cacheScope":"public","tools":%s}}`,
		in.id, s.serverInfoJSON(), listTTL, s.toolListJSON())
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
				b.WriteString(d.json)
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
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(map[string]string{"name": "loams", "title": "Loams", "version": s.opts.Build.Version})
		s.serverInfo = bytes.TrimSpace(b.Bytes())
	})
	return s.serverInfo
}

// preparedState is the Server's share of the above.
type preparedState struct {
	noPrepared     bool // tests: let the SDK answer, to compare
	serverInfoOnce sync.Once
	serverInfo     []byte
	toolListOnce   sync.Once
	toolList       string
}

// finishAfterInitialize answers call id with line once no initialize sent
// before it is still unanswered: a client that pipelines initialize and
// tools/list reads the answers in that order. Other calls in flight (a
// stack_start waiting a minute) do not hold it up.
func (f *front) finishAfterInitialize(id int64, line []byte) {
	f.mu.Lock()
	for f.initializeBefore(id) {
		f.settled.Wait()
	}
	f.mu.Unlock()
	f.finish(id, line, "ok")
}

func (f *front) initializeBefore(id int64) bool {
	for n, c := range f.calls {
		if n < id && c.in.method == "initialize" {
			return true
		}
	}
	return false
}
