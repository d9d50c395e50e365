package main

import (
	"fmt"
	"slices"
	"strings"
)

// listener is one listen flag of the real server's `dev`: what it logs
// once bound, its default (bound when neither it nor its off switch is
// given; "" = off unless given) and its off switch.
type listener struct {
	flag, log, def, off, feature string
}

// listeners follows server-facts.md. feature names the cargo feature that
// brings the flag; the packaged variant lacks some of them.
var listeners = []listener{
	{"--listen", "loams listening on http://%s", "127.0.0.1:8080", "", ""},
	{"--flight-sql-listen", "loams flight sql listening on grpc://%s", "127.0.0.1:8082", "--no-flight-sql", "flight"},
	{"--mcp-listen", "loams mcp listening on http://%s/mcp", "127.0.0.1:8083", "--no-mcp", "mcp"},
	{"--qdrant-listen", "loams qdrant REST listening on http://%s", "127.0.0.1:6333", "--no-qdrant", "qdrant"},
	{"--qdrant-grpc-listen", "loams qdrant gRPC listening on http://%s", "127.0.0.1:6334", "--no-qdrant", "qdrant"},
	{"--es-listen", "loams es listening on http://%s", "127.0.0.1:9200", "--no-es", "es"},
	{"--pg-listen", "loams pg listening on postgres://%s", "", "", "pgwire"},
	{"--durable-listen", "loams durable listening on http://%s", "127.0.0.1:8001", "--no-durable", "durable"},
	{"--mysql-listen", "loams mysql listening on mysql://%s", "", "", "mysql-wire"},
	{"--stream-grpc-listen", "loams stream grpc listening on grpc://%s", "", "", ""},
	{"--live-listen", "loams live listening on http://%s", "127.0.0.1:7710", "--no-live", "live"},
	{"--sqlgate-listen", "loams sql gate listening on %s", "127.0.0.1:7720", "", "sqldb"},
}

// dirFlags take a path; the stand-in creates each one it is given.
var dirFlags = []string{"--data-dir", "--hot-dir", "--graph-data-dir"}

// features of each build variant (server-facts.md): the packages have
// es, flight, hnsw, live and qdrant only. sqldb is opt-in
// (TESTSERVER_SQLGATE=1) because no build the CLI meets today has it.
var variants = map[string][]string{
	"standard": {"flight", "mcp", "qdrant", "es", "pgwire", "durable", "mysql-wire", "live", "graph"},
	"packaged": {"flight", "qdrant", "es", "live", "graph"},
}

// build is what this run of the stand-in offers.
type build struct {
	features []string
	missing  []string // TESTSERVER_NO_FLAGS, without the dashes
}

func (b build) hasFeature(f string) bool { return f == "" || slices.Contains(b.features, f) }

// has reports whether a flag is in this build's `dev --help`.
func (b build) has(flag string) bool {
	if slices.Contains(b.missing, strings.TrimPrefix(flag, "--")) {
		return false
	}
	for _, l := range listeners {
		if l.flag == flag || l.off == flag {
			return b.hasFeature(l.feature)
		}
	}
	if flag == "--graph-data-dir" || flag == "--no-graph" {
		return b.hasFeature("graph")
	}
	return true
}

// printHelp imitates clap's long help, which the CLI scans for flags and
// their [default: …].
func (b build) printHelp() {
	fmt.Println("Run everything in one process with data in a local directory\n\nUsage: loams dev [OPTIONS]\n\nOptions:")
	opt := func(flag, value, help string) {
		if !b.has(flag) {
			return
		}
		if value != "" {
			flag += " <" + value + ">"
		}
		fmt.Printf("      %s\n          %s\n\n", flag, help)
	}
	opt("--data-dir", "DATA_DIR", "Directory for all local data [default: .loams]")
	opt("--hot-dir", "HOT_DIR", "Hot tier directory [default: <data-dir>/hot]")
	opt("--graph-data-dir", "GRAPH_DATA_DIR", "Graph store directory [default: .loams-graph]")
	opt("--no-graph", "", "Do not run the graph engine")
	seen := map[string]bool{}
	for _, l := range listeners {
		help := "Address to listen on"
		if l.def != "" {
			help += " [default: " + l.def + "]"
		}
		opt(l.flag, "ADDR", help)
		if l.off != "" && !seen[l.off] {
			seen[l.off] = true
			opt(l.off, "", "Do not start this listener")
		}
	}
	fmt.Println("  -h, --help\n          Print help")
}
