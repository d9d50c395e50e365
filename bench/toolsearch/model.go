package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// model is the stand-in for the Messages API: to the request of a run it
// answers with one ToolSearch call carrying that run's query, records the
// tool_result Claude Code sends back, and ends the turn. Each run has its
// own base URL (/run/<id>), so runs can share one server.
type model struct {
	mu   sync.Mutex
	runs map[string]*run
}

type run struct {
	query  string
	found  []string // ToolSearch's answer, best first
	loaded []string // loams tools in the model's tool list up front (anthropic/alwaysLoad), not deferred
	// upfront is what the model reads before any search: the bytes of the
	// first request's system prompt and tool list; loamsBytes the part of
	// it that is loams tools' definitions.
	upfront, loamsBytes int
	done                bool
}

const searchID = "toolu_01standinsearch"

type request struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	System json.RawMessage   `json:"system"`
	Tools  []json.RawMessage `json:"tools"`
}

type tool struct {
	Name         string `json:"name"`
	DeferLoading bool   `json:"defer_loading"`
}

type block struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	ToolName  string          `json:"tool_name"`
	Text      string          `json:"text"`
	Content   json.RawMessage `json:"content"`
}

func (m *model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/run/"), "/")
	m.mu.Lock()
	rn := m.runs[id]
	m.mu.Unlock()
	if rn == nil || rest != "v1/messages" {
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"stand-in: only /run/<id>/v1/messages"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	offersSearch, upfront, loamsBytes := false, len(req.System), 0
	var loaded []string
	for _, raw := range req.Tools {
		var t tool
		json.Unmarshal(raw, &t)
		offersSearch = offersSearch || t.Name == "ToolSearch"
		if t.DeferLoading {
			continue // the model sees only the name, in ToolSearch's list of deferred tools
		}
		upfront += len(raw)
		if strings.HasPrefix(t.Name, "mcp__loams__") {
			loaded = append(loaded, t.Name)
			loamsBytes += len(raw)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if offersSearch && !rn.done && rn.upfront == 0 {
		rn.loaded, rn.upfront, rn.loamsBytes = loaded, upfront, loamsBytes
	}
	if result, ok := toolResult(req); ok {
		rn.found, rn.done = foundTools(result), true
		reply(w, req.Stream, nil, "done")
		return
	}
	if !offersSearch || rn.done { // a side request (a title, a summary): any text will do
		reply(w, req.Stream, nil, "ok")
		return
	}
	reply(w, req.Stream, map[string]any{"query": rn.query, "max_results": 5}, "")
}

// toolResult finds the ToolSearch result in the last user message.
func toolResult(req request) (json.RawMessage, bool) {
	if len(req.Messages) == 0 {
		return nil, false
	}
	var blocks []block
	if json.Unmarshal(req.Messages[len(req.Messages)-1].Content, &blocks) != nil {
		return nil, false
	}
	for _, b := range blocks {
		if b.Type == "tool_result" && b.ToolUseID == searchID {
			return b.Content, true
		}
	}
	return nil, false
}

// foundTools reads the tool names of a ToolSearch result: tool_reference
// blocks, best first.
func foundTools(content json.RawMessage) []string {
	var blocks []block
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "tool_reference" {
			out = append(out, b.ToolName)
		}
	}
	return out
}

// reply answers with a ToolSearch call (input non-nil) or with text, as one
// JSON message or as the event stream Claude Code asks for.
func reply(w http.ResponseWriter, stream bool, input map[string]any, text string) {
	stop, content := "end_turn", []any{map[string]any{"type": "text", "text": text}}
	if input != nil {
		stop, content = "tool_use", []any{map[string]any{"type": "tool_use", "id": searchID, "name": "ToolSearch", "input": input}}
	}
	usage := map[string]int{"input_tokens": 1, "output_tokens": 1}
	msg := map[string]any{"id": "msg_standin", "type": "message", "role": "assistant", "model": "stand-in",
		"stop_reason": stop, "stop_sequence": nil, "usage": usage, "content": content}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(name string, data map[string]any) {
		data["type"] = name
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	event("message_start", map[string]any{"message": start})
	if input != nil {
		js, _ := json.Marshal(input)
		event("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "tool_use", "id": searchID, "name": "ToolSearch", "input": map[string]any{}}})
		event("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(js)}})
	} else {
		event("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": text}})
	}
	event("content_block_stop", map[string]any{"index": 0})
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 1}})
	event("message_stop", map[string]any{})
}
