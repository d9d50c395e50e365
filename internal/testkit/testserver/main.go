// Command testserver is a stand-in for the Loams server, for tests only: it
// takes the real server's command line, binds every port it is given (and,
// like the real server, each listener with a default that is not switched
// off), answers /health, /ready and GetInstance, serves the native REST
// API in memory on --listen (native.go), and exits 0 on SIGTERM.
// It is never shipped, and the CLI never starts it on its own.
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
//	TESTSERVER_VARIANT=packaged  the .deb/.rpm build: no --pg-listen, --durable-listen, --mcp-listen
//	TESTSERVER_SQLGATE=1         offer --sqlgate-listen (default 127.0.0.1:7720, no off switch)
//	TESTSERVER_NO_GETINSTANCE=1  an older server: GetInstance is 404
//	TESTSERVER_SNAKE_CASE=1      GetInstance answers in snake_case
//	TESTSERVER_READY_KEY=1       /ready wants "Authorization: Bearer $LOAMS_API_KEY" (401 without);
//	                             any other value is the only key /ready accepts
//
// With --data-dir it seeds the data, hot and graph directories with real
// files (a symlink among them) on first start, and POST
// /testserver/put?dir=data|hot&path=REL writes one: snapshot, restore and
// clone tests round-trip real trees (data.go).
//
// The variant and version can also be built in, for fixture releases:
// -ldflags "-X main.variant=packaged -X main.version=1.2.3".
//
// It writes its argv to <data-dir>/argv.json so tests can parse it back.
//
// Unlike the real server, it exits when its stdin is a pipe that closes:
// a test that runs it through `loams dev` and then kills the CLI (or
// ends) must not leave a server behind, holding ports and whatever file
// descriptors it inherited. Stacks give it /dev/null, which is not a pipe.
package main

import (
	"encoding/json"
	"fmt"
	"io"
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

// Set with -ldflags -X.
var (
	variant = "standard"
	version = "0.0.1"
)

func main() { os.Exit(run(os.Args[1:])) }

func currentBuild() build {
	v := envOr("TESTSERVER_VARIANT", variant)
	b := build{features: slices.Clone(variants[v])}
	if b.features == nil {
		b.features = slices.Clone(variants["standard"])
	}
	if os.Getenv("TESTSERVER_SQLGATE") != "" {
		b.features = append(b.features, "sqldb")
	}
	b.missing = strings.Split(os.Getenv("TESTSERVER_NO_FLAGS"), ",")
	return b
}

func run(args []string) int {
	versionLine := envOr("TESTSERVER_VERSION", "loams "+version)
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-V") {
		fmt.Println(versionLine)
		return 0
	}
	if len(args) == 0 || args[0] != "dev" {
		fmt.Fprintln(os.Stderr, "error: the stand-in knows only `dev`")
		return 2
	}
	args = args[1:]
	b := currentBuild()
	if slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		b.printHelp()
		return 0
	}
	given, offs := map[string]string{}, map[string]bool{}
	var tlsF tlsFiles
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !b.has(a):
			fmt.Fprintf(os.Stderr, "error: unexpected argument '%s' found\n", a)
			return 2
		case (a == "--tls-cert" || a == "--tls-key") && i+1 < len(args):
			i++
			if a == "--tls-cert" {
				tlsF.cert = args[i]
			} else {
				tlsF.key = args[i]
			}
		case strings.HasPrefix(a, "--no-"):
			offs[a] = true
		case takesValue(a):
			if i+1 >= len(args) {
				fmt.Fprintf(os.Stderr, "error: a value is required for '%s <VALUE>'\n", a)
				return 2
			}
			i++
			given[a] = args[i]
		default:
			fmt.Fprintf(os.Stderr, "error: unexpected argument '%s' found\n", a)
			return 2
		}
	}
	if dataDir := given["--data-dir"]; dataDir != "" {
		_ = os.MkdirAll(dataDir, 0o700)
		data, _ := json.Marshal(os.Args)
		_ = os.WriteFile(filepath.Join(dataDir, "argv.json"), data, 0o600)
	}
	if d := given["--graph-data-dir"]; d != "" {
		_ = os.MkdirAll(d, 0o700)
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
	binds := map[string]string{}
	for _, l := range listeners {
		if !b.has(l.flag) {
			continue
		}
		if addr, ok := given[l.flag]; ok {
			binds[l.flag] = addr
		} else if l.def != "" && !offs[l.off] && given["--data-dir"] != "" {
			// Like the real server: on by default. Only when started as a
			// stack's server (with --data-dir): a bare `loams dev` in a test
			// must not take 8080 or 6333 from another test's first stack.
			binds[l.flag] = l.def
		}
	}
	if given["--data-dir"] != "" {
		seedData(given)
	}
	return b.serve(binds, versionLine, tlsF, given)
}

func takesValue(flag string) bool {
	if slices.Contains(dirFlags, flag) {
		return true
	}
	for _, l := range listeners {
		if l.flag == flag {
			return true
		}
	}
	return false
}

func (b build) serve(binds map[string]string, versionLine string, tlsF tlsFiles, dirs map[string]string) int {
	started := time.Now()
	delay, _ := time.ParseDuration(os.Getenv("TESTSERVER_READY_DELAY"))
	var flap atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("/ready", func(w http.ResponseWriter, r *http.Request) {
		if want := os.Getenv("TESTSERVER_READY_KEY"); want != "" {
			if want == "1" {
				want = os.Getenv("LOAMS_API_KEY")
			}
			if r.Header.Get("Authorization") != "Bearer "+want {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
		}
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
	instanceRoutes(mux, b.getInstance(versionLine))
	mux.HandleFunc("/testserver/put", putHandler(dirs))
	// The native REST API is the native port's alone (native.go); the
	// compatibility ports answer only what they share with it.
	native := nativeMux(mux, func() bool { return time.Since(started) >= delay })
	for _, l := range listeners {
		addr, ok := binds[l.flag]
		if !ok {
			continue
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "loams: binding %s %s: %v\n", l.flag, addr, err)
			return 1
		}
		msg, h := l.log, guard(mux)
		if l.flag == "--listen" {
			h = guard(native)
		}
		if l.flag == "--listen" && tlsF.cert != "" {
			go func() { _ = http.ServeTLS(ln, h, tlsF.cert, tlsF.key) }()
			msg = strings.Replace(msg, "http://", "https://", 1)
		} else {
			go func() { _ = http.Serve(ln, h) }()
		}
		fmt.Printf(msg+"\n", ln.Addr()) // the bound address: tests may pass port 0
	}
	// When /ready turns 200, for benchmarks of how late the CLI notices.
	readyFrom := started.Add(delay)
	if now := time.Now(); now.After(readyFrom) {
		readyFrom = now
	}
	fmt.Printf("loams stand-in ready from %s\n", readyFrom.Format(time.RFC3339Nano))
	sigs := make(chan os.Signal, 1)
	go exitWithStdinPipe(sigs)
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

// exitWithStdinPipe stops the server when stdin is a pipe and its writer
// is gone (the process that started it has ended).
func exitWithStdinPipe(stop chan<- os.Signal) {
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	stop <- syscall.SIGTERM
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
