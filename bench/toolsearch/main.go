// Command toolsearch measures whether Claude Code's ToolSearch finds the
// right loams tool when Claude Code defers MCP tools (issue 30). For each
// request of a set, the real Claude Code runs once (`claude -p`) with loams
// as its only MCP server and a stand-in model (model.go) that answers with
// one ToolSearch call carrying the keyword query a model would write; the
// tools ToolSearch returns are recorded and ranked against the wanted one.
//
//	bench/toolsearch/run                      this tree
//	BASELINE=<git rev> bench/toolsearch/run   … and that revision beside it
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

type labelled struct {
	request, query, want string
}

type binaries []struct{ label, path string }

func (b *binaries) String() string { return fmt.Sprint(*b) }
func (b *binaries) Set(v string) error {
	label, path, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want LABEL=PATH, got %q", v)
	}
	*b = append(*b, struct{ label, path string }{label, path})
	return nil
}

func main() {
	var loams binaries
	flag.Var(&loams, "loams", "LABEL=PATH of a loams binary (repeat to compare)")
	claude := flag.String("claude", "", "Claude Code's binary")
	parallel := flag.Int("parallel", 2, "Claude Code processes at once")
	verbose := flag.Bool("v", false, "print each request's ranking")
	flag.Parse()
	args := flag.Args()
	if *claude == "" || len(loams) == 0 || len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: toolsearch -claude PATH -loams LABEL=PATH... requests.tsv...")
		os.Exit(2)
	}
	m := &model{runs: map[string]*run{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	srv := &http.Server{Handler: m}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	// "always loaded": the wanted tool was in the model's tool list up front
	// (anthropic/alwaysLoad), so no search was needed; it is counted apart
	// from "ranked first" and beside it in "right tool at hand".
	fmt.Fprintln(tw, "set\tloams\trequests\tranked first\talways loaded\tright tool at hand\ttop 3\tfound\tmean rank\tup front B\tloams tools up front B\t")
	for _, file := range args {
		set := readSet(file)
		for _, bin := range loams {
			ranks := make([]int, len(set))
			found := make([][]string, len(set))
			loaded := make([]bool, len(set))
			upfront, loamsBytes := make([]int, len(set)), make([]int, len(set))
			var wg sync.WaitGroup
			sem := make(chan struct{}, *parallel)
			for i, l := range set {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer func() { <-sem; wg.Done() }()
					id := fmt.Sprintf("%s-%d-%d", filepath.Base(file), len(bin.label), i)
					id = strings.NewReplacer(".", "-", "/", "-").Replace(id + "-" + bin.label)
					rn := &run{query: l.query}
					m.mu.Lock()
					m.runs[id] = rn
					m.mu.Unlock()
					if err := drive(*claude, bin.path, base+"/run/"+id, l.request); err != nil {
						fmt.Fprintf(os.Stderr, "%s: %q: %v\n", bin.label, l.request, err)
					}
					m.mu.Lock()
					defer m.mu.Unlock()
					if !rn.done {
						fmt.Fprintf(os.Stderr, "%s: %q: Claude Code never sent ToolSearch's result back\n", bin.label, l.request)
					}
					found[i] = rn.found
					ranks[i] = slices.Index(rn.found, "mcp__loams__"+l.want) + 1
					loaded[i] = slices.Contains(rn.loaded, "mcp__loams__"+l.want)
					upfront[i], loamsBytes[i] = rn.upfront, rn.loamsBytes
				}()
			}
			wg.Wait()
			first, always, top3, any, sum, bytes, lbytes := 0, 0, 0, 0, 0, 0, 0
			for i, r := range ranks {
				bytes += upfront[i]
				lbytes += loamsBytes[i]
				if loaded[i] {
					always++
					r, ranks[i] = 1, 1 // at hand without a search: rank 1 for top 3, found and the mean
				} else if r == 1 {
					first++
				}
				if r >= 1 && r <= 3 {
					top3++
				}
				if r >= 1 {
					any++
					sum += r
				}
				if *verbose {
					mark := "  "
					if r != 1 {
						mark = "✗ "
					}
					if loaded[i] {
						mark = "L "
					}
					fmt.Fprintf(os.Stderr, "%s%-8s %-12s %-45q want %-15s got %s\n", mark, bin.label, filepath.Base(file), set[i].query, set[i].want, strings.Join(found[i], " "))
				}
			}
			mean := "—"
			if any > 0 {
				mean = fmt.Sprintf("%.2f", float64(sum)/float64(any))
			}
			n := len(set)
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t\n", filepath.Base(file), bin.label, n, first, always, first+always,
				top3, any, mean, bytes/n, lbytes/n)
		}
	}
	tw.Flush()
}

// drive runs Claude Code once, print mode, in a scratch HOME, with loams as
// its only MCP server and the stand-in as its model.
func drive(claude, loams, baseURL, prompt string) error {
	home, err := os.MkdirTemp("", "toolsearch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	project := filepath.Join(home, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		return err
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"loams": map[string]any{
		"command": loams, "args": []string{"mcp", "serve"},
		"env": map[string]string{"LOAMS_HOME": filepath.Join(home, ".loams"), "LOAMS_SECRETS": "file"}}}})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", prompt, "--mcp-config", string(cfg), "--strict-mcp-config",
		"--allowedTools", "ToolSearch", "--model", "claude-sonnet-4-5")
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "HOME="+home, "ANTHROPIC_BASE_URL="+baseURL, "ANTHROPIC_API_KEY=sk-ant-standin",
		"ENABLE_TOOL_SEARCH=true", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

func readSet(file string) []labelled {
	f, err := os.Open(file)
	check(err)
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			check(fmt.Errorf("%s: want request<TAB>query<TAB>tool: %q", file, line))
		}
		out = append(out, labelled{cols[0], cols[1], cols[2]})
	}
	check(sc.Err())
	return out
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "toolsearch:", err)
		os.Exit(1)
	}
}
