// Command session measures what a scripted agent session costs in bytes:
// what `loams mcp serve` writes to the agent for initialize, tools/list and
// the calls an agent makes while setting up an app (three searches, a
// snippet, info, status, two calls that fail). Every byte of it lands in
// the model's context or the host's buffers. A second table is what the
// model reads of each tool result, by the kind of host (spec mcp.md, "What
// the model reads"): Claude Code and Codex pass structuredContent as JSON
// when there is one, Copilot CLI and Qwen Code pass both, Gemini CLI,
// opencode and the rest pass the text.
//
//	bench/session/run                        this tree
//	BASELINE=<git rev> bench/session/run     … and that revision beside it
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// script is the session: id → request line (ids in order).
var script = []struct{ name, line string }{
	{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"session","version":"1"}}}`},
	{"", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{"tools/list", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`},
	{"search_docs connect to qdrant from python", call(3, "search_docs", `{"query":"connect to qdrant from python"}`)},
	{"search_docs qdrant port", call(4, "search_docs", `{"query":"qdrant port"}`)},
	{"search_docs LOAMS_API_KEY", call(5, "search_docs", `{"query":"LOAMS_API_KEY"}`)},
	{"get_sdk_snippet qdrant python", call(6, "get_sdk_snippet", `{"engine":"qdrant","language":"python"}`)},
	{"loams_info", call(7, "loams_info", `{}`)},
	{"stack_status", call(8, "stack_status", `{}`)},
	{"env_export (no stack: error)", call(9, "env_export", `{}`)},
	{"stack_start dev (missing: error)", call(10, "stack_start", `{"name":"dev"}`)},
}

func call(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

func main() {
	var bins multi
	flag.Var(&bins, "loams", "label=path of a loams binary (repeatable)")
	flag.Parse()
	sizes := map[string]map[float64]answer{}
	for _, b := range bins {
		label, path, _ := strings.Cut(b, "=")
		s, err := run(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", label, err)
			os.Exit(1)
		}
		sizes[label] = s
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "request\t")
	for _, b := range bins {
		label, _, _ := strings.Cut(b, "=")
		fmt.Fprintf(tw, "%s: answer bytes\t%s: text-block bytes\t", label, label)
	}
	fmt.Fprintln(tw)
	totals := make([][2]int, len(bins))
	id := 0.0
	for _, s := range script {
		if s.name == "" {
			continue
		}
		id++
		fmt.Fprintf(tw, "%s\t", s.name)
		for i, b := range bins {
			label, _, _ := strings.Cut(b, "=")
			n := sizes[label][id]
			totals[i][0] += n.line
			totals[i][1] += n.text
			fmt.Fprintf(tw, "%d\t%d\t", n.line, n.text)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "whole session\t")
	for _, n := range totals {
		fmt.Fprintf(tw, "%d\t%d\t", n[0], n[1])
	}
	fmt.Fprintln(tw)
	_ = tw.Flush()
	fmt.Println()
	readTable(bins, sizes)
}

// hostKinds are what a host passes on to the model of a tool result.
var hostKinds = []struct {
	name  string
	reads func(a answer) int
}{
	{"structured (Claude Code, Codex)", func(a answer) int {
		if a.structured > 0 {
			return a.structured
		}
		return a.text
	}},
	{"text (Gemini CLI, opencode, …)", func(a answer) int { return a.text }},
	{"both (Copilot CLI, Qwen Code)", func(a answer) int { return a.structured + a.text }},
}

// readTable prints, per tool call and binary, the bytes the model reads
// in each kind of host, and structuredContent's weight against the text.
func readTable(bins []string, sizes map[string]map[float64]answer) {
	for _, b := range bins {
		label, _, _ := strings.Cut(b, "=")
		tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%s: what the model reads\t", label)
		for _, k := range hostKinds {
			fmt.Fprintf(tw, "%s\t", k.name)
		}
		fmt.Fprintln(tw, "structured/text\t")
		totals := make([]int, len(hostKinds)+2)
		id := 0.0
		for _, s := range script {
			if s.name == "" {
				continue
			}
			id++
			if !strings.Contains(s.line, `"tools/call"`) {
				continue
			}
			a := sizes[label][id]
			fmt.Fprintf(tw, "%s\t", s.name)
			for j, k := range hostKinds {
				totals[j] += k.reads(a)
				fmt.Fprintf(tw, "%d\t", k.reads(a))
			}
			totals[len(hostKinds)] += a.structured
			totals[len(hostKinds)+1] += a.text
			fmt.Fprintf(tw, "%s\t\n", ratio(a.structured, a.text))
		}
		fmt.Fprint(tw, "tool calls\t")
		for _, n := range totals[:len(hostKinds)] {
			fmt.Fprintf(tw, "%d\t", n)
		}
		fmt.Fprintf(tw, "%s\t\n", ratio(totals[len(hostKinds)], totals[len(hostKinds)+1]))
		_ = tw.Flush()
		fmt.Println()
	}
}

func ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}

// answer is one answer's size: the line, its text blocks, and its
// structuredContent as compact JSON (what a host serialises for the model).
type answer struct{ line, text, structured int }

// run plays the script against one binary in a throwaway home and
// project, and returns each answer's size in bytes (with its newline) and
// the bytes of its tool result's text blocks (what most hosts show the
// model; 0 for answers that are not tool results).
func run(bin string) (map[float64]answer, error) {
	home, err := os.MkdirTemp("", "session-home")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	project := filepath.Join(home, "app")
	if err := os.MkdirAll(project, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"app"}`), 0o644); err != nil {
		return nil, err
	}
	var in bytes.Buffer
	for _, s := range script {
		in.WriteString(s.line + "\n")
	}
	cmd := exec.Command(bin, "mcp", "serve")
	cmd.Env = append(os.Environ(), "LOAMS_HOME="+filepath.Join(home, "loams"), "LOAMS_SECRETS=file", "CLAUDE_PROJECT_DIR="+project,
		"LOAMS_SERVER_BINARY="+filepath.Join(home, "none"))
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	sizes := map[float64]answer{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m struct {
			ID     float64
			Result struct {
				Content           []struct{ Text string }
				StructuredContent json.RawMessage
			}
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			n := sizes[m.ID]
			n.line += len(sc.Bytes()) + 1
			for _, c := range m.Result.Content {
				n.text += len(c.Text)
			}
			if len(m.Result.StructuredContent) > 0 {
				var c bytes.Buffer
				if json.Compact(&c, m.Result.StructuredContent) == nil {
					n.structured = c.Len()
				}
			}
			sizes[m.ID] = n
		}
	}
	return sizes, nil
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }
