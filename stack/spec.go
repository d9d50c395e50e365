package stack

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/BurntSushi/toml"

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// MaxStacks bounds the stacks of one LOAMS_HOME: each is a server process
// with a handful of ports, and agents can create them.
const MaxStacks = 8

// Spec is stack.toml: what the CLI turns into the server's command line.
// The server never reads it.
type Spec struct {
	Schema        int            `toml:"schema"`
	Name          string         `toml:"name"`
	CreatedAt     time.Time      `toml:"created_at"`
	CreatedBy     string         `toml:"created_by"`
	ServerBinary  string         `toml:"server_binary"`
	ServerVersion string         `toml:"server_version"`
	Engines       []string       `toml:"engines"`
	Metastore     string         `toml:"metastore"`
	ObjectStore   string         `toml:"object_store"`
	Storage       Storage        `toml:"storage"`
	Ports         map[string]int `toml:"ports"`
	// Project is the directory of the project whose init or stack_create
	// made the stack: another project's init does not take it over.
	Project string `toml:"project,omitempty"`

	dir string // the stack's directory under LOAMS_HOME
}

// Storage is where the server keeps its hot data.
type Storage struct {
	Kind string `toml:"kind"` // dir | mount
	Path string `toml:"path"`
}

// Dir is the stack's directory; the paths below are inside it.
func (s *Spec) Dir() string      { return s.dir }
func (s *Spec) DataDir() string  { return filepath.Join(s.dir, "data") }
func (s *Spec) LogPath() string  { return filepath.Join(s.dir, "logs", "server.log") }
func (s *Spec) PidPath() string  { return filepath.Join(s.dir, "server.pid") }
func (s *Spec) LockPath() string { return filepath.Join(s.dir, "lock") }
func (s *Spec) HotDir() string   { return filepath.Join(s.Storage.Path, "hot") }

func specPath(h home.Home, name string) string { return filepath.Join(h.Stack(name), "stack.toml") }

// Load reads a stack's stack.toml.
func Load(h home.Home, name string) (*Spec, error) {
	if !config.StackName().MatchString(name) {
		return nil, nameError(name)
	}
	path := specPath(h, name)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFoundError(h, name, true)
	}
	if err != nil {
		return nil, err
	}
	var s Spec
	if _, err := toml.Decode(string(data), &s); err != nil {
		return nil, errs.New(errs.ConfigUnparseable, "fix or remove "+path, "%s does not parse: %v", path, err).With("path", path)
	}
	if s.Schema != 1 {
		return nil, errs.New(errs.ConfigUnparseable, "this loams understands schema 1; upgrade loams or recreate the stack",
			"%s has schema %d", path, s.Schema).With("path", path)
	}
	s.dir = h.Stack(name)
	return &s, nil
}

// LoadTrusted is Load for a caller about to run the stack's server binary
// or read its key: it refuses a stack another user could have changed
// (unsafe_permissions, exit 8, with the chmod that fixes it).
func LoadTrusted(h home.Home, name string) (*Spec, error) {
	s, err := Load(h, name)
	if err != nil {
		return nil, err
	}
	if err := s.checkSafe(); err != nil {
		return nil, err
	}
	return s, nil
}

// save writes stack.toml atomically, 0600.
func (s *Spec) save() error {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(s); err != nil {
		return err
	}
	return safefile.Write(filepath.Join(s.dir, "stack.toml"), buf.Bytes(), 0o600)
}

// List returns every stack of LOAMS_HOME by name; a missing stacks
// directory is no stacks. Unreadable specs are skipped by name only.
func List(h home.Home) ([]string, error) {
	entries, err := os.ReadDir(h.StacksDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !config.StackName().MatchString(e.Name()) {
			continue // a clone's staging directory
		}
		if _, err := os.Stat(specPath(h, e.Name())); err == nil {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// EnvVars are the stack's engine variables in registry order; the caller
// adds LOAMS_STACK and LOAMS_API_KEY (envfile does).
func (s *Spec) EnvVars() []envfile.Var {
	var vars []envfile.Var
	for _, e := range s.engines() {
		for _, v := range e.Env {
			for _, l := range e.Listeners {
				if l.Key == v.Listener {
					vars = append(vars, envfile.Var{Name: v.Name, Value: l.url(s.Ports[l.Key]) + v.Suffix})
				}
			}
		}
	}
	return vars
}

// engines is the registry rows of the stack's engines, in registry order.
func (s *Spec) engines() []Engine {
	var out []Engine
	for _, e := range registry {
		for _, n := range s.Engines {
			if n == e.Name {
				out = append(out, e)
			}
		}
	}
	return out
}

func nameError(name string) error {
	return errs.New(errs.Usage, "use a lowercase letter, then up to 30 lowercase letters, digits or dashes (e.g. dev)",
		"invalid stack name %q", name).With("name", name)
}

// parseStorage reads --storage dir:PATH|mount:PATH; empty is the stack's
// own directory.
func parseStorage(arg, stackDir string) (Storage, error) {
	if arg == "" {
		return Storage{Kind: "dir", Path: stackDir}, nil
	}
	kind, path, ok := bytes.Cut([]byte(arg), []byte(":"))
	if !ok || (string(kind) != "dir" && string(kind) != "mount") || len(path) == 0 {
		return Storage{}, errs.New(errs.Usage, "use dir:PATH or mount:PATH (object storage is not for local stacks)",
			"invalid storage %q", arg).With("storage", arg)
	}
	abs, err := filepath.Abs(string(path))
	if err != nil {
		return Storage{}, err
	}
	if string(kind) == "mount" {
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return Storage{}, errs.New(errs.Usage, "mount the volume first, or use dir:PATH",
				"mount point %s is not a directory", abs).With("storage", arg)
		}
	}
	return Storage{Kind: string(kind), Path: abs}, nil
}

func (s *Spec) String() string { return fmt.Sprintf("stack %s", s.Name) }

// MCPURL is the address of the stack's own MCP data endpoint, "" when the
// stack does not run the mcp engine.
func (s *Spec) MCPURL() string {
	for _, v := range s.EnvVars() {
		if v.Name == "LOAMS_MCP_URL" {
			return v.Value
		}
	}
	return ""
}
