// Command testserver is a stand-in for the Loams server, for tests only: it
// takes the real server's command line, binds every port it is given,
// answers /health and /ready, and exits 0 on SIGTERM. It is never shipped,
// and the CLI never starts it on its own.
//
// Knobs, through the environment:
//
//	TESTSERVER_READY_DELAY=2s    /ready answers 503 for this long
//	TESTSERVER_CRASH=message     print "loams: message" to stderr and exit 1 at start
//	TESTSERVER_PRINT_KEY=1       print LOAMS_API_KEY's value to stderr first (redaction tests)
//	TESTSERVER_IGNORE_TERM=1     ignore SIGTERM (only SIGKILL stops it)
//	TESTSERVER_NO_FLAGS=a,b      leave --a, --b out of `dev --help` and refuse them
//	TESTSERVER_FLAP=1            /ready alternates between 200 and 503
//	TESTSERVER_VERSION=text      what --version prints (default "loams 0.0.1")
//
// It writes its argv to <data-dir>/argv.json so tests can parse it back.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// listenFlags are the server's listener flags with what they log when bound.
var listenFlags = map[string]string{
	"--listen": "loams listening on http://%s", "--flight-sql-listen": "loams flight sql listening on grpc://%s",
	"--mcp-listen": "loams mcp listening on http://%s/mcp", "--qdrant-listen": "loams qdrant REST listening on http://%s",
	"--qdrant-grpc-listen": "loams qdrant gRPC listening on http://%s", "--es-listen": "loams es listening on http://%s",
	"--pg-listen": "loams pg listening on postgres://%s", "--durable-listen": "loams durable listening on http://%s",
	"--mysql-listen": "loams mysql listening on mysql://%s", "--stream-grpc-listen": "loams stream grpc listening on grpc://%s",
	"--live-listen": "loams live listening on http://%s",
}

var switches = []string{"--no-flight-sql", "--no-mcp", "--no-qdrant", "--no-es", "--no-durable", "--no-live"}

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	if len(args) == 1 && args[0] == "--version" {
		fmt.Println(envOr("TESTSERVER_VERSION", "loams 0.0.1"))
		return 0
	}
	if len(args) == 0 || args[0] != "dev" {
		fmt.Fprintln(os.Stderr, "error: the stand-in knows only `dev`")
		return 2
	}
	args = args[1:]
	missing := strings.Split(os.Getenv("TESTSERVER_NO_FLAGS"), ",")
	has := func(flag string) bool { return !slices.Contains(missing, strings.TrimPrefix(flag, "--")) }
	if slices.Contains(args, "--help") {
		printHelp(has)
		return 0
	}
	listens := map[string]string{}
	var dataDir string
	for i := 0; i < len(args); i++ {
		a := args[i]
		_, isListen := listenFlags[a]
		switch {
		case !has(a):
			fmt.Fprintf(os.Stderr, "error: unexpected argument '%s' found\n", a)
			return 2
		case slices.Contains(switches, a):
		case isListen || a == "--data-dir" || a == "--hot-dir":
			if i+1 >= len(args) {
				fmt.Fprintf(os.Stderr, "error: a value is required for '%s <VALUE>'\n", a)
				return 2
			}
			i++
			if isListen {
				listens[a] = args[i]
			} else if a == "--data-dir" {
				dataDir = args[i]
			}
		default:
			fmt.Fprintf(os.Stderr, "error: unexpected argument '%s' found\n", a)
			return 2
		}
	}
	if dataDir != "" {
		_ = os.MkdirAll(dataDir, 0o700)
		data, _ := json.Marshal(os.Args)
		_ = os.WriteFile(filepath.Join(dataDir, "argv.json"), data, 0o600)
	}
	if os.Getenv("TESTSERVER_PRINT_KEY") != "" {
		fmt.Fprintln(os.Stderr, "loams: config: api key "+os.Getenv("LOAMS_API_KEY"))
	}
	if msg := os.Getenv("TESTSERVER_CRASH"); msg != "" {
		fmt.Fprintln(os.Stderr, "loams: "+msg)
		return 1
	}
	keyState := "unset"
	if os.Getenv("LOAMS_API_KEY") != "" {
		keyState = "set" // never the value: tests scan this log for secrets
	}
	fmt.Printf("loams stand-in starting (pid %d, api key %s)\n", os.Getpid(), keyState)
	return serve(listens)
}

func serve(listens map[string]string) int {
	started := time.Now()
	delay, _ := time.ParseDuration(os.Getenv("TESTSERVER_READY_DELAY"))
	var flap atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("/ready", func(w http.ResponseWriter, _ *http.Request) {
		ready := time.Since(started) >= delay
		if os.Getenv("TESTSERVER_FLAP") != "" {
			ready = flap.Load()
			flap.Store(!ready)
		}
		if !ready {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	for flag, addr := range listens {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "loams: binding %s %s: %v\n", flag, addr, err)
			return 1
		}
		go func() { _ = http.Serve(l, mux) }()
		fmt.Printf(listenFlags[flag]+"\n", addr)
	}
	sigs := make(chan os.Signal, 1)
	if os.Getenv("TESTSERVER_IGNORE_TERM") != "" {
		signal.Ignore(syscall.SIGTERM)
		signal.Notify(sigs, os.Interrupt)
	} else {
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	}
	<-sigs
	fmt.Println("loams stand-in shutting down")
	return 0
}

// printHelp imitates clap's layout, which the CLI scans for flags.
func printHelp(has func(string) bool) {
	fmt.Println("Run everything in one process with data in a local directory\n\nUsage: loams dev [OPTIONS]\n\nOptions:")
	flags := []string{"--data-dir <DATA_DIR>", "--listen <LISTEN>", "--hot-dir <HOT_DIR>"}
	for f := range listenFlags {
		if f != "--listen" {
			flags = append(flags, f+" <ADDR>")
		}
	}
	flags = append(flags, switches...)
	slices.Sort(flags)
	for _, f := range flags {
		if name, _, _ := strings.Cut(f, " "); has(name) {
			fmt.Printf("      %s\n", f)
		}
	}
	fmt.Println("  -h, --help  Print help")
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
