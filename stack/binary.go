package stack

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// probeTimeout bounds each question asked of a server binary.
const probeTimeout = 5 * time.Second

// Server is a Loams server binary and what it said it supports.
type Server struct {
	Path    string          `json:"path"`
	Version string          `json:"version"`
	Flags   map[string]bool `json:"flags"` // flags of `dev --help`
}

// Has reports whether the binary accepts flag.
func (s *Server) Has(flag string) bool { return s.Flags[flag] }

// Available reports whether the binary has every listener flag of e.
func (s *Server) Available(e Engine) bool {
	for _, l := range e.Listeners {
		if !s.Has(l.Flag) {
			return false
		}
	}
	return true
}

// EnginesAvailable names the engines the binary can run.
func (s *Server) EnginesAvailable() []string {
	var out []string
	for _, e := range registry {
		if s.Available(e) {
			out = append(out, e.Name)
		}
	}
	return out
}

// Locate finds the server binary in the spec's order: the explicit path
// (--server-binary), LOAMS_SERVER_BINARY, the profile's server_binary,
// $LOAMS_HOME/bin/loams-server, loams-server on PATH.
func Locate(h home.Home, explicit, profile string, getenv func(string) string) (string, error) {
	for _, c := range []struct{ path, from string }{
		{explicit, "--server-binary"}, {getenv("LOAMS_SERVER_BINARY"), "LOAMS_SERVER_BINARY"}, {profile, "the profile's server_binary"},
	} {
		if c.path == "" {
			continue
		}
		abs, err := filepath.Abs(c.path)
		if err == nil {
			if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
				return abs, nil
			}
		}
		return "", notFound().With("path", c.path).With("from", c.from)
	}
	if p := filepath.Join(h.BinDir(), "loams-server"); isFile(p) {
		return p, nil
	}
	if p, err := exec.LookPath("loams-server"); err == nil {
		return filepath.Abs(p)
	}
	return "", notFound()
}

func notFound() *errs.Error {
	return errs.New(errs.ServerBinaryNotFound,
		"give loams the Loams server binary in one of five ways: `--server-binary PATH` on stack create, "+
			"LOAMS_SERVER_BINARY=PATH, `loams configure set server_binary PATH`, a copy at $LOAMS_HOME/bin/loams-server, "+
			"or `loams-server` on PATH",
		"no Loams server binary found")
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

var flagPattern = regexp.MustCompile(`--[a-z][a-z0-9-]*`)

// Probe asks the binary for its version and its dev flags, each under a
// 5 s timeout. Answers are cached in LOAMS_HOME keyed by path, size and
// mtime, so a rebuilt binary is asked again.
func Probe(ctx context.Context, h home.Home, path string) (*Server, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, notFound().With("path", path)
	}
	key := path + "|" + fi.ModTime().UTC().Format(time.RFC3339Nano) + "|" + itoa(fi.Size())
	cachePath := filepath.Join(h.Dir, "cache", "server-probe.json")
	cache := map[string]*Server{}
	if data, err := os.ReadFile(cachePath); err == nil {
		_ = json.Unmarshal(data, &cache)
	}
	if s, ok := cache[key]; ok {
		return s, nil
	}
	version, err := run(ctx, path, "--version")
	if err != nil {
		return nil, errs.New(errs.ServerError, "check that "+path+" is a Loams server binary for this machine",
			"%s --version failed: %v", path, err).With("path", path)
	}
	help, err := run(ctx, path, "dev", "--help")
	if err != nil {
		return nil, errs.New(errs.ServerError, "check that "+path+" is a Loams server binary with a `dev` command",
			"%s dev --help failed: %v", path, err).With("path", path)
	}
	s := &Server{Path: path, Version: firstLine(version), Flags: map[string]bool{}}
	for _, f := range flagPattern.FindAllString(help, -1) {
		s.Flags[f] = true
	}
	cache = map[string]*Server{key: s} // one binary at a time is the common case; keep the file small
	if data, err := json.Marshal(cache); err == nil {
		if err := os.MkdirAll(filepath.Dir(cachePath), 0o700); err == nil {
			_ = safefile.Write(cachePath, data, 0o600)
		}
	}
	return s, nil
}

func run(ctx context.Context, path string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = scrubbedEnv(os.Environ())
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return "", errors.New("no answer within 5s")
	}
	return string(out), err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
