// Package serverbin is the Loams server binary as the CLI meets it: where
// it ships and how to find it (never this CLI itself), what its `dev
// --help` offers, installing a verified release, and asking a running
// server what it is (GetInstance).
package serverbin

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// ProbeTimeout bounds each question asked of a candidate binary.
const ProbeTimeout = 5 * time.Second

// PassthroughMarker is set in the environment of every process the CLI
// starts to ask a candidate binary something. A loams CLI that finds it
// set refuses to forward `dev|standalone|cluster` again, so probing a
// copy of the CLI can never start a chain of CLIs.
const PassthroughMarker = "LOAMS_SERVER_PASSTHROUGH"

// Binary is a probed candidate: what its `dev --help` and `--version` said.
type Binary struct {
	Path     string            `json:"path"`
	Version  string            `json:"version"`       // the semver of --version's "loams 0.0.1": "0.0.1"
	IsServer bool              `json:"is_server"`     // `dev --help` lists --data-dir
	Flags    map[string]bool   `json:"flags"`         // every flag of `dev --help`
	Defaults map[string]string `json:"defaults"`      // flag → its [default: …] in `dev --help`
	Values   map[string]bool   `json:"values"`        // options that take a value (`--x <X>`)
	Why      string            `json:"why,omitempty"` // why it is not a server
}

// Has reports whether the binary's `dev` accepts flag.
func (b *Binary) Has(flag string) bool { return b.Flags[flag] }

// probeCacheSize bounds the cache file: discovery probes a handful of
// candidates, a few more across rebuilds.
const probeCacheSize = 32

type cacheEntry struct {
	Key    string  `json:"key"`
	Binary *Binary `json:"binary"`
	At     int64   `json:"at"`
}

// Probe asks the binary at path whether it is a Loams server (`dev --help`
// lists --data-dir) and its version, each question under ProbeTimeout. The
// answer is cached in LOAMS_HOME by path, size and mtime, so a rebuilt or
// upgraded binary is asked again. A binary that is not a server is a
// result (IsServer false, Why says why), not an error; only a missing file
// is an error.
func Probe(ctx context.Context, h home.Home, path string) (*Binary, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := path + "|" + fi.ModTime().UTC().Format(time.RFC3339Nano) + "|" + strconv.FormatInt(fi.Size(), 10)
	cachePath := filepath.Join(h.Dir, "cache", "server-probe.json")
	var cache []cacheEntry
	if data, _, err := safefile.ReadRegular(cachePath, cachePath, 1<<20); err == nil {
		_ = json.Unmarshal(data, &cache)
	}
	for _, e := range cache {
		if e.Key == key && e.Binary != nil {
			e.Binary.Version = SemVer(e.Binary.Version) // a cache written when it held the whole line
			return e.Binary, nil
		}
	}
	b, cacheable := ask(ctx, path)
	if !cacheable {
		return b, nil
	}
	cache = append([]cacheEntry{{Key: key, Binary: b, At: time.Now().Unix()}}, dropPath(cache, path)...)
	sort.SliceStable(cache, func(i, j int) bool { return cache[i].At > cache[j].At })
	if len(cache) > probeCacheSize {
		cache = cache[:probeCacheSize]
	}
	if data, err := json.Marshal(cache); err == nil {
		if err := os.MkdirAll(filepath.Dir(cachePath), 0o700); err == nil {
			_ = safefile.Write(cachePath, data, 0o600)
		}
	}
	return b, nil
}

// dropPath removes older answers for the same path (the binary changed).
func dropPath(cache []cacheEntry, path string) []cacheEntry {
	var out []cacheEntry
	for _, e := range cache {
		if e.Binary != nil && e.Binary.Path != path {
			out = append(out, e)
		}
	}
	return out
}

// ask runs the two questions; a timeout is not cached (the machine may
// just have been busy).
func ask(ctx context.Context, path string) (*Binary, bool) {
	b := &Binary{Path: path, Flags: map[string]bool{}, Defaults: map[string]string{}, Values: map[string]bool{}}
	help, err := run(ctx, path, "dev", "--help")
	if err != nil {
		b.Why = "`dev --help` failed: " + err.Error()
		return b, !errors.Is(err, errTimeout)
	}
	b.Flags, b.Defaults, b.Values = ParseHelp(help)
	if !b.Flags["--data-dir"] {
		b.Why = "`dev --help` does not list --data-dir"
		return b, true
	}
	version, err := run(ctx, path, "--version")
	if err != nil {
		b.Why = "`--version` failed: " + err.Error()
		return b, !errors.Is(err, errTimeout)
	}
	b.IsServer, b.Version = true, SemVer(firstLine(version))
	return b, true
}

var errTimeout = errors.New("no answer within 5s")

func run(ctx context.Context, path string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	var out []byte
	var err error
	// A binary written a moment ago (install's smoke test) can be
	// "text file busy" while another goroutine's fork still holds its
	// write descriptor (golang/go#22315): wait a little and try again.
	for wait := 10 * time.Millisecond; ; wait *= 2 {
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Env = append(ProbeEnv(os.Environ()), PassthroughMarker+"="+path)
		cmd.WaitDelay = time.Second
		out, err = cmd.Output()
		if !errors.Is(err, syscall.ETXTBSY) || wait > 500*time.Millisecond {
			break
		}
		time.Sleep(wait)
	}
	if ctx.Err() != nil {
		return "", errTimeout
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return "", errors.New("exit code " + strconv.Itoa(ee.ExitCode()))
	}
	return string(out), err
}

// ProbeEnv is the CLI's environment without credentials and without
// LOAMS_FAILPOINTS (a build without failpoints refuses to start with it).
func ProbeEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "LOAMS_FAILPOINTS", name == "LOAMS_TOKEN", name == PassthroughMarker,
			strings.HasSuffix(name, "_API_KEY"), strings.HasSuffix(name, "_TOKEN"),
			strings.HasSuffix(name, "_SECRET"), strings.HasSuffix(name, "_PASSWORD"):
			continue
		}
		out = append(out, kv)
	}
	return out
}

var (
	flagPattern    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z0-9-]*`) })
	defaultPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[default: ([^\]]+)\]`) })
	optionLine     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+(-[a-zA-Z], )?--[a-z]`) })
)

// ParseHelp reads clap's `dev --help`: every flag it names, and for each
// option the [default: …] written on its line or on the lines below it
// (clap puts long help under the flag), and which options take a value.
func ParseHelp(help string) (flags map[string]bool, defaults map[string]string, values map[string]bool) {
	flags, defaults, values = map[string]bool{}, map[string]string{}, map[string]bool{}
	current := ""
	for _, line := range strings.Split(help, "\n") {
		if optionLine().MatchString(line) {
			current = ""
			fields := strings.Fields(strings.TrimSpace(line))
			for _, f := range fields {
				if name := flagPattern().FindString(f); name != "" && strings.HasPrefix(f, "--") {
					current = name
					break
				}
			}
			if after, ok := strings.CutPrefix(strings.TrimSpace(line[strings.Index(line, current)+len(current):]), "<"); ok && after != "" && current != "" {
				values[current] = true
			}
		} else if strings.TrimSpace(line) == "" || !strings.HasPrefix(line, " ") {
			current = ""
		}
		for _, f := range flagPattern().FindAllString(line, -1) {
			flags[f] = true
		}
		if m := defaultPattern().FindStringSubmatch(line); m != nil && current != "" {
			defaults[current] = strings.TrimSpace(m[1])
		}
	}
	return flags, defaults, values
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}
