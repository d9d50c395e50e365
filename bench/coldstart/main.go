// Command coldstart measures what an agent waits for when it starts an MCP
// server: from spawning the process to the tools/list answer, under both
// protocol generations (the initialize handshake; 2026-07-28's
// server/discover and a stateless tools/list), for loams, the previous
// loams binary (-baseline), a minimal go-sdk server, the exec floor and
// optionally a Node server, interleaved in one run so machine noise hits
// all alike. -parallel N starts N of each at once and times the last
// answer (agents start several servers together). It also reports loams'
// resident memory once it has answered.
//
//	bench/coldstart/run        (builds as the release does, runs this)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// generations are the request sequences of the two protocol generations;
// each ends with tools/list as id 2.
var generations = []struct{ name, requests string }{
	{"handshake", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"coldstart","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`},
	{"stateless", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
`},
}

type server struct {
	name string
	argv []string
}

const (
	loamsName = "loams mcp serve"
	baseName  = "loams (baseline)"
	floorName = "exec floor (Go, canned)"
	sdkName   = "minimal go-sdk server"
)

func main() {
	loams := flag.String("loams", "", "loams binary")
	baseline := flag.String("baseline", "", "the previous loams binary, for the ratio of a change")
	floor := flag.String("floor", "", "exec-floor binary")
	gosdk := flag.String("gosdk", "", "minimal go-sdk server binary")
	node := flag.String("node-server", "", "server-everything entry point (dist/index.js), optional")
	runs := flag.Int("runs", 30, "starts per server and generation")
	parallel := flag.Int("parallel", 1, "servers of a kind started at once; the time is the last one's answer")
	cli := flag.Bool("cli", false, "time whole CLI processes instead: `loams docs search` beside `loams version`")
	flag.Parse()
	if *cli {
		cliBench(*loams, *baseline, *runs)
		return
	}
	servers := []server{{loamsName, []string{*loams, "mcp", "serve"}}}
	if *baseline != "" {
		servers = append(servers, server{baseName, []string{*baseline, "mcp", "serve"}})
	}
	servers = append(servers, server{floorName, []string{*floor}})
	if *gosdk != "" {
		servers = append(servers, server{sdkName, []string{*gosdk}})
	}
	if *node != "" {
		servers = append(servers, server{"server-everything (Node)", []string{"node", *node, "stdio"}})
	}
	home, _ := os.MkdirTemp("", "coldstart-")
	defer os.RemoveAll(home)
	results := map[string][]time.Duration{}
	var rss string
	for i := 0; i < *runs; i++ {
		for _, g := range generations {
			for _, s := range servers { // interleaved, so machine noise hits all alike
				d, r, err := batch(s.argv, g.requests, home, *parallel, s.name == loamsName && i == *runs-1)
				if err != nil {
					fmt.Fprintf(os.Stderr, "%s (%s): %v\n", s.name, g.name, err)
					os.Exit(1)
				}
				results[s.name+"/"+g.name] = append(results[s.name+"/"+g.name], d)
				if r != "" {
					rss = r
				}
			}
		}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "server\tgeneration\tparallel\truns\tp50\tp90\tmean\tp50 / floor\tp50 / go-sdk"
	if *baseline != "" {
		header += "\tp50 / baseline"
	}
	fmt.Fprintln(tw, header+"\t")
	for _, g := range generations {
		floorP50 := p(results[floorName+"/"+g.name], 50)
		for _, s := range servers {
			ds := results[s.name+"/"+g.name]
			row := fmt.Sprintf("%s\t%s\t%d\t%d\t%s\t%s\t%s\t%.2fx\t%s", s.name, g.name, *parallel, len(ds), p(ds, 50), p(ds, 90), mean(ds),
				ratio(p(ds, 50), floorP50), ratioOf(results, s.name, sdkName, g.name))
			if *baseline != "" {
				row += "\t" + ratioOf(results, s.name, baseName, g.name)
			}
			fmt.Fprintln(tw, row+"\t")
		}
	}
	tw.Flush()
	fmt.Printf("\nloams mcp serve RSS after answering tools/list: %s\n", rss)
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

// ratioOf is the p50 of one server over another's, "-" when that one did not run.
func ratioOf(results map[string][]time.Duration, name, other, gen string) string {
	o := results[other+"/"+gen]
	if len(o) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", ratio(p(results[name+"/"+gen], 50), p(o, 50)))
}

// batch starts n copies of argv at once and returns when the last has
// answered tools/list.
func batch(argv []string, requests, home string, n int, measureRSS bool) (time.Duration, string, error) {
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, n)
	var rss string
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r string
			_, r, errs[i] = once(argv, requests, home, measureRSS && i == 0)
			if r != "" {
				rss = r
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, "", err
		}
	}
	return time.Since(start), rss, nil
}

// once spawns argv, sends the requests and waits for the tools/list answer.
func once(argv []string, requests, home string, measureRSS bool) (time.Duration, string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "LOAMS_HOME="+home, "LOAMS_SECRETS=file")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, "", err
	}
	defer func() { stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if _, err := io.WriteString(stdin, requests); err != nil {
		return 0, "", err
	}
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return 0, "", fmt.Errorf("no tools/list answer: %v", err)
		}
		if strings.Contains(line, `"id":2`) {
			if !strings.Contains(line, `"tools"`) {
				return 0, "", fmt.Errorf("tools/list failed: %s", line)
			}
			break
		}
	}
	elapsed := time.Since(start)
	rss := ""
	if measureRSS {
		if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)); err == nil {
			for _, l := range strings.Split(string(data), "\n") {
				if strings.HasPrefix(l, "VmRSS:") {
					rss = strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:"))
				}
			}
		}
	}
	return elapsed, rss, nil
}

func p(ds []time.Duration, pct int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)*pct/100].Round(10 * time.Microsecond)
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return (sum / time.Duration(len(ds))).Round(10 * time.Microsecond)
}

// cliBench times `loams docs search "qdrant port"` as a whole process
// beside `loams version` (the CLI's own floor), interleaved.
func cliBench(loams, baseline string, runs int) {
	type command struct {
		name, bin string
		args      []string
	}
	cmds := []command{{"loams version", loams, []string{"version"}}, {`loams docs search "qdrant port"`, loams, []string{"docs", "search", "qdrant port"}}}
	if baseline != "" {
		cmds = append(cmds, command{`baseline docs search "qdrant port"`, baseline, []string{"docs", "search", "qdrant port"}})
	}
	home, _ := os.MkdirTemp("", "coldstart-cli-")
	defer os.RemoveAll(home)
	results := map[string][]time.Duration{}
	for range runs {
		for _, c := range cmds {
			cmd := exec.Command(c.bin, c.args...)
			cmd.Env = append(os.Environ(), "LOAMS_HOME="+home)
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n%s", c.name, err, out)
				os.Exit(1)
			}
			results[c.name] = append(results[c.name], time.Since(start))
		}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "command\truns\tp50\tp90\tp50 / version\t")
	floor := p(results["loams version"], 50)
	for _, c := range cmds {
		ds := results[c.name]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.2fx\t\n", c.name, len(ds), p(ds, 50), p(ds, 90), ratio(p(ds, 50), floor))
	}
	tw.Flush()
}
