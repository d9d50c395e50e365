package stack

import (
	"fmt"
	"net"
	"slices"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// Port blocks for stacks after the first: base+offset for every engine.
const (
	firstBase = 20000
	lastBase  = 29900
	baseStep  = 100
)

// portFree reports whether a test bind on loopback succeeds.
func portFree(port int) bool {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// listeners of a set of engine names, in registry order.
func listenersOf(engines []string) []Listener {
	var out []Listener
	for _, e := range registry {
		if slices.Contains(engines, e.Name) {
			out = append(out, e.Listeners...)
		}
	}
	return out
}

// allocatePorts picks the stack's ports: the defaults when they are all
// free and unrecorded, else the first free block of 100 from 20000, or the
// block at base when --port-base is given. Ports stay fixed afterwards.
func allocatePorts(h home.Home, engines []string, base int) (map[string]int, error) {
	taken := recordedPorts(h)
	ls := listenersOf(engines)
	try := func(port func(Listener) int) (map[string]int, bool) {
		out := map[string]int{}
		for _, l := range ls {
			p := port(l)
			if p <= 0 || p > 65535 || taken[p] || !portFree(p) {
				return nil, false
			}
			out[l.Key] = p
		}
		return out, true
	}
	if base > 0 {
		if ports, ok := try(func(l Listener) int { return base + l.Offset }); ok {
			return ports, nil
		}
		return nil, errs.New(errs.PortInUse, "pick another --port-base, or leave it out to let loams choose",
			"a port of the block at %d is in use or belongs to another stack", base).With("port_base", base)
	}
	if ports, ok := try(func(l Listener) int { return l.Port }); ok {
		return ports, nil
	}
	for b := firstBase; b <= lastBase; b += baseStep {
		if ports, ok := try(func(l Listener) int { return b + l.Offset }); ok {
			return ports, nil
		}
	}
	return nil, errs.New(errs.PortInUse, "free some ports between 20000 and 29999, or pass --port-base", "no free block of ports found")
}

// recordedPorts are the ports every existing stack has in its stack.toml.
func recordedPorts(h home.Home) map[int]bool {
	taken := map[int]bool{}
	names, _ := List(h)
	for _, n := range names {
		if s, err := Load(h, n); err == nil {
			for _, p := range s.Ports {
				taken[p] = true
			}
		}
	}
	return taken
}

// checkPorts re-probes a stack's ports before start and names the engine
// and port that is taken.
func (s *Spec) checkPorts() error {
	for _, e := range s.engines() {
		for _, l := range e.Listeners {
			p := s.Ports[l.Key]
			if !portFree(p) {
				return errs.New(errs.PortInUse, fmt.Sprintf("stop what holds port %d (`lsof -i :%d` or `ss -ltnp 'sport = :%d'`), or recreate the stack", p, p, p),
					"port %d (%s) is already in use", p, e.Name).With("engine", e.Name).With("port", p)
			}
		}
	}
	return nil
}
