// Command coldstart measures what an agent waits for when it starts an MCP
// server: from spawning the process to the tools/list answer (initialize,
// notifications/initialized, tools/list), for loams, a Node MCP server from
// npm and the exec floor, side by side in one run. It also reports loams'
// resident memory once it has answered.
//
//	bench/coldstart/run        (builds, installs the Node server, runs this)
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
	"text/tabwriter"
	"time"
)

const requests = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"coldstart","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`

type server struct {
	name string
	argv []string
}

func main() {
	loams := flag.String("loams", "", "loams binary")
	floor := flag.String("floor", "", "exec-floor binary")
	node := flag.String("node-server", "", "server-everything entry point (dist/index.js)")
	runs := flag.Int("runs", 30, "starts per server")
	flag.Parse()
	servers := []server{{"loams mcp serve", []string{*loams, "mcp", "serve"}}, {"exec floor (Go, canned)", []string{*floor}}}
	if *node != "" {
		servers = append(servers, server{"server-everything (Node)", []string{"node", *node, "stdio"}})
	}
	home, _ := os.MkdirTemp("", "coldstart-")
	defer os.RemoveAll(home)
	results := map[string][]time.Duration{}
	var rss string
	for i := 0; i < *runs; i++ {
		for _, s := range servers { // interleaved, so machine noise hits all alike
			d, r, err := once(s.argv, home, s.name == "loams mcp serve" && i == *runs-1)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", s.name, err)
				os.Exit(1)
			}
			results[s.name] = append(results[s.name], d)
			if r != "" {
				rss = r
			}
		}
	}
	floorP50 := p(results["exec floor (Go, canned)"], 50)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "server\truns\tp50\tp90\tmean\tp50 / floor\t")
	for _, s := range servers {
		ds := results[s.name]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%.1fx\t\n", s.name, len(ds), p(ds, 50), p(ds, 90), mean(ds), float64(p(ds, 50))/float64(floorP50))
	}
	tw.Flush()
	fmt.Printf("\nloams mcp serve RSS after answering tools/list: %s\n", rss)
}

// once spawns argv, sends the requests and waits for the tools/list answer.
func once(argv []string, home string, measureRSS bool) (time.Duration, string, error) {
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
