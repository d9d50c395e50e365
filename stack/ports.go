package stack

import (
	"fmt"
	"net"
	"slices"
	"strconv"

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

// listenersOf of a set of engine names, in registry order.
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
// The caller holds the create lock, so recorded ports are current.
func (sv *Supervisor) allocatePorts(engines []string, base int, first bool) (map[string]int, error) {
	taken := recordedPorts(sv.Home)
	ls := listenersOf(engines)
	var defaultBusy *Listener // the documented port that was taken, for the notice
	// try returns the ports, or the first listener that cannot have its port.
	try := func(port func(Listener) int) (map[string]int, *Listener) {
		out := map[string]int{}
		for _, l := range ls {
			p := port(l)
			if p <= 0 || p > 65535 || taken[p] != "" || !portFree(p) {
				return nil, &l
			}
			out[l.Key] = p
		}
		return out, nil
	}
	if base > 0 {
		ports, l := try(func(l Listener) int { return base + l.Offset })
		if l == nil {
			return ports, nil
		}
		return nil, sv.baseTaken(base, *l, taken[base+l.Offset])
	}
	if tb := testPortBase(sv.Home); tb > 0 {
		if ports, l := try(func(l Listener) int { return tb + l.Offset }); l == nil {
			return ports, nil
		}
	}
	if ports, busy := try(func(l Listener) int { return l.Port }); busy == nil {
		return ports, nil
	} else {
		defaultBusy = busy
	}
	for b := firstBase; b <= lastBase; b += baseStep {
		if ports, l := try(func(l Listener) int { return b + l.Offset }); l == nil {
			if first { // say once why the first stack is not on the documented ports
				sv.notify("port %d (%s) is in use, so stack ports start at %d instead (e.g. %s on %d)",
					defaultBusy.Port, engineOf(defaultBusy.Key), b, engineOf(ls[0].Key), ports[ls[0].Key])
			}
			return ports, nil
		}
	}
	return nil, errs.New(errs.PortInUse, "free some ports between 20000 and 29999, or pass --port-base", "no free block of ports found").
		ForAgent("ask the user to free some ports between 20000 and 29999 (or to run `loams stack create --port-base N`)")
}

// baseTaken is --port-base's port_in_use: the engine, the port, and who
// has it (another stack, or a process where the OS says).
func (sv *Supervisor) baseTaken(base int, l Listener, stack string) error {
	p := base + l.Offset
	if p <= 0 || p > 65535 {
		return errs.New(errs.Usage, "pick a --port-base from 1024 to "+strconv.Itoa(65535-99), "port %d (%s) is out of range for --port-base %d", p, engineOf(l.Key), base).
			With("port_base", base).With("engine", engineOf(l.Key)).With("port", p)
	}
	if stack != "" {
		return errs.New(errs.PortInUse, "pick another --port-base, or leave it out to let loams choose",
			"port %d (%s) of --port-base %d belongs to stack %q", p, engineOf(l.Key), base, stack).
			With("port_base", base).With("engine", engineOf(l.Key)).With("port", p).With("stack", stack)
	}
	return portInUse(p, engineOf(l.Key), "pick another --port-base, or leave it out to let loams choose").With("port_base", base)
}

// recordedPorts maps every port an existing stack has in its stack.toml to
// that stack's name.
func recordedPorts(h home.Home) map[int]string {
	taken := map[int]string{}
	names, _ := List(h)
	for _, n := range names {
		if s, err := Load(h, n); err == nil {
			for _, p := range s.Ports {
				taken[p] = n
			}
		}
	}
	return taken
}

// engineOf names the engine a [ports] key belongs to (qdrant_grpc → qdrant).
func engineOf(key string) string {
	for _, e := range registry {
		for _, l := range e.Listeners {
			if l.Key == key {
				return e.Name
			}
		}
	}
	return key
}

// checkPorts re-probes a stack's ports before start and names the engine
// and port that is taken, and the process holding it where the OS says.
func (s *Spec) checkPorts() error {
	if p, engine := s.busyPort(); p != 0 {
		return portInUse(p, engine, "")
	}
	return nil
}

// busyPort is the first of the stack's ports a test bind fails on, and its
// engine; 0 when all are free.
func (s *Spec) busyPort() (int, string) {
	for _, e := range s.engines() {
		for _, l := range e.Listeners {
			if p := s.Ports[l.Key]; !portFree(p) {
				return p, e.Name
			}
		}
	}
	return 0, ""
}

// portInUse names the port, its engine and its holder; hint "" is the
// default: stop the holder.
func portInUse(p int, engine, hint string) *errs.Error {
	h := holderOf(p)
	by := ""
	if h.PID > 0 {
		by = fmt.Sprintf(" by pid %d (%s)", h.PID, h.Command)
	} else if h.Unknown != "" {
		by = " (" + h.Unknown + ")"
	}
	if hint == "" {
		hint = fmt.Sprintf("stop what holds port %d (`lsof -i :%d` or `ss -ltnp 'sport = :%d'`), or recreate the stack", p, p, p)
		if h.PID > 0 {
			hint = fmt.Sprintf("stop pid %d (%s) if it is a leftover server (`kill %d`), or recreate the stack with other ports", h.PID, h.Command, h.PID)
		}
	}
	e := errs.New(errs.PortInUse, hint, "port %d (%s) is already in use%s", p, engine, by).With("engine", engine).With("port", p)
	if h.PID > 0 {
		e.With("holder_pid", h.PID).With("holder_command", h.Command)
	}
	return e
}

// holder is the process listening on a port, as far as the OS tells.
type holder struct {
	PID     int
	Command string // the program only (argv[0]): arguments may hold secrets
	Unknown string // why there is no answer, when there is none
}
