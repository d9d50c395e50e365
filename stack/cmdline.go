package stack

import (
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"loams.dev/cli/serverbin"
)

// Argv is the server's command line for the stack, flags of absent engines
// left out: always absolute paths, always loopback, registry order, and
// only flags the binary listed in `dev --help`. Listeners and directories
// the registry does not know (a newer server's) are read from the help
// too, so nothing binds a port or writes a directory the CLI did not
// choose (extraFlags).
func (s *Spec) Argv(srv *Server) []string {
	argv := []string{s.ServerBinary, "dev", "--data-dir", s.DataDir()}
	on, given := map[string]bool{}, map[string]bool{}
	for _, e := range s.engines() {
		on[e.Name] = true
		for _, l := range e.Listeners {
			argv = append(argv, l.Flag, fmt.Sprintf("127.0.0.1:%d", s.Ports[l.Key]))
			given[l.Flag] = true
		}
	}
	for _, e := range registry {
		if !on[e.Name] && e.OffFlag != "" && srv.Has(e.OffFlag) && !given[e.OffFlag] {
			argv = append(argv, e.OffFlag)
			given[e.OffFlag] = true
		}
	}
	argv = append(argv, s.extraFlags(srv, given)...)
	return append(argv, "--hot-dir", s.HotDir())
}

// extraFlags handles every `--<x>-listen` with a default that the stack
// did not set (Live on 7710 in packaged builds: two stacks would collide
// on it): off with its `--no-<x>` when the server offers one, else a port
// of the stack's own block. Every other `--<x>-dir` or `--<x>-data-dir`
// gets a directory inside the stack directory, since the server's
// defaults are relative to the working directory.
func (s *Spec) extraFlags(srv *Server, given map[string]bool) []string {
	var out []string
	usedOffsets := map[int]bool{}
	for _, e := range registry {
		for _, l := range e.Listeners {
			usedOffsets[l.Offset] = true
		}
	}
	for _, flag := range slices.Sorted(maps.Keys(srv.Defaults)) {
		x, ok := strings.CutSuffix(strings.TrimPrefix(flag, "--"), "-listen")
		if !ok || flag == "--listen" || given[flag] {
			continue
		}
		off := "--no-" + x
		l, e, known := listenerOf(flag)
		if known && e.OffFlag != "" {
			off = e.OffFlag
		}
		if given[off] {
			continue
		}
		if srv.Has(off) {
			out = append(out, off)
			given[off] = true
			continue
		}
		offset := 0
		if known {
			offset = l.Offset
		} else {
			offset = freeOffset(x, usedOffsets)
		}
		out = append(out, flag, fmt.Sprintf("127.0.0.1:%d", s.blockBase()+offset))
	}
	for _, flag := range slices.Sorted(maps.Keys(srv.Values)) {
		x, ok := strings.CutSuffix(strings.TrimPrefix(flag, "--"), "-dir")
		if !ok || flag == "--data-dir" || flag == "--hot-dir" || given[flag] {
			continue
		}
		x = strings.TrimSuffix(x, "-data")
		out = append(out, flag, filepath.Join(s.dir, x+"-data"))
	}
	return out
}

// blockBase is the base of the stack's block of ports: the native port
// minus its offset (8000 for the first stack on the defaults, 20000, 20100
// … for later ones).
func (s *Spec) blockBase() int {
	native, _, _ := listenerOf("--listen")
	return s.Ports[native.Key] - native.Offset
}

// freeOffset gives a listener the registry does not know a stable offset
// in 40–79, which no engine uses, picked by its name.
func freeOffset(name string, used map[int]bool) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	start := int(h.Sum32() % 40)
	for i := 0; i < 40; i++ {
		off := 40 + (start+i)%40
		if !used[off] {
			used[off] = true
			return off
		}
	}
	return 40
}

// listenerOf finds the registry listener (and its engine) of a flag.
func listenerOf(flag string) (Listener, Engine, bool) {
	for _, e := range registry {
		for _, l := range e.Listeners {
			if l.Flag == flag {
				return l, e, true
			}
		}
	}
	return Listener{}, Engine{}, false
}

// scrubbedEnv is the environment the server inherits: the CLI's, minus
// anything that looks like a credential (the server gets the stack's own
// key instead) and LOAMS_FAILPOINTS, which a build without failpoints
// refuses to start with.
func scrubbedEnv(env []string) []string { return serverbin.ProbeEnv(env) }

// serverEnv is scrubbedEnv plus the stack's key.
func serverEnv(key string) []string {
	return append(scrubbedEnv(os.Environ()), "LOAMS_API_KEY="+key)
}
