package stack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"time"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

func isReady(ok bool, _ error) bool { return ok }

// The states `stack describe` reports.
const (
	Running   = "running"
	Starting  = "starting"
	Unhealthy = "unhealthy"
	Stopped   = "stopped"
	Crashed   = "crashed"
)

// pidFile is server.pid: the pid alone is not an identity (pids are
// reused), so the process start time is kept beside it.
type pidFile struct {
	PID       int       `json:"pid"`
	StartTime string    `json:"start_time"`
	StartedAt time.Time `json:"started_at"`
}

func readPid(path string) (*pidFile, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p pidFile
	if err := json.Unmarshal(data, &p); err != nil || p.PID <= 0 {
		return &pidFile{}, nil // unreadable: treated as a process that is gone
	}
	return &p, nil
}

func writePid(path string, p pidFile) error {
	data, _ := json.Marshal(p)
	return safefile.Write(path, append(data, '\n'), 0o600)
}

// ours reports whether the recorded process is alive and is the one we
// started (same start time).
func (p *pidFile) ours() bool {
	return p != nil && p.PID > 0 && alive(p.PID) && startTime(p.PID) == p.StartTime
}

// probeTimeoutHTTP keeps a hung server from hanging describe.
const probeTimeoutHTTP = 500 * time.Millisecond

// ready is the spec's readiness: /ready answers 200 and every engine port
// accepts a connection (/ready does not cover compatibility listeners).
// The probe goes through the one endpoint client, without retries (the
// caller polls), and carries the stack's own key: a server whose /ready
// wants it would otherwise look "starting" for the whole wait. A key the
// server refuses (401, 403) is refused, not "not ready yet".
func (s *Spec) ready(key endpoint.Key) (ok bool, refused error) {
	c, err := endpoint.New(s.NativeURL(), endpoint.Options{ConnectTimeout: probeTimeoutHTTP, RequestTimeout: probeTimeoutHTTP, Retries: -1, Key: key})
	if err != nil {
		return false, nil
	}
	defer c.Close()
	resp, err := c.Do(context.Background(), endpoint.Call{Method: http.MethodGet, Path: "/ready"})
	if errs.Is(err, errs.Unauthenticated) || errs.Is(err, errs.Forbidden) {
		return false, err
	}
	if err != nil || resp.Status != http.StatusOK {
		return false, nil
	}
	for _, l := range listenersOf(s.Engines) {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", s.Ports[l.Key]), probeTimeoutHTTP)
		if err != nil {
			return false, nil
		}
		c.Close()
	}
	return true, nil
}

// state reads the stack's state from its pid file and the process.
// key is asked only for a live server of ours (readiness carries it).
func (s *Spec) state(now time.Time, wait time.Duration, key func() endpoint.Key) (string, *pidFile, error) {
	p, err := readPid(s.PidPath())
	if err != nil {
		return "", nil, err
	}
	switch {
	case p == nil:
		return Stopped, nil, nil
	case !p.ours():
		return Crashed, p, nil
	case isReady(s.ready(key())):
		return Running, p, nil
	case now.Sub(p.StartedAt) < wait:
		return Starting, p, nil
	}
	return Unhealthy, p, nil
}
