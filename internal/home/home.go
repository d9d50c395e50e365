// Package home locates LOAMS_HOME and the files inside it. Only paths live
// here; what goes into the files belongs to the packages that own them.
package home

import (
	"fmt"
	"os"
	"path/filepath"
)

// Home is a LOAMS_HOME directory.
type Home struct{ Dir string }

// Resolve picks LOAMS_HOME from the environment, else ~/.loams.
func Resolve(getenv func(string) string) (Home, error) {
	if d := getenv("LOAMS_HOME"); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return Home{}, err
		}
		return Home{Dir: abs}, nil
	}
	h := getenv("HOME")
	if h == "" {
		var err error
		if h, err = os.UserHomeDir(); err != nil {
			return Home{}, fmt.Errorf("no home directory: set LOAMS_HOME")
		}
	}
	return Home{Dir: filepath.Join(h, ".loams")}, nil
}

// Ensure creates the directory with mode 0700 (and tightens an existing one
// we created earlier with looser bits).
func (h Home) Ensure() error {
	if err := os.MkdirAll(h.Dir, 0o700); err != nil {
		return fmt.Errorf("create LOAMS_HOME %s: %w", h.Dir, err)
	}
	return os.Chmod(h.Dir, 0o700)
}

// EnsureDir creates a directory below LOAMS_HOME with mode 0700.
func (h Home) EnsureDir(parts ...string) (string, error) {
	if err := h.Ensure(); err != nil {
		return "", err
	}
	p := filepath.Join(append([]string{h.Dir}, parts...)...)
	if err := os.MkdirAll(p, 0o700); err != nil {
		return "", err
	}
	return p, nil
}

func (h Home) Config() string           { return filepath.Join(h.Dir, "config.toml") }
func (h Home) MCPInstalls() string      { return filepath.Join(h.Dir, "mcp-installs.json") }
func (h Home) LogsDir() string          { return filepath.Join(h.Dir, "logs") }
func (h Home) MCPLog() string           { return filepath.Join(h.Dir, "logs", "mcp.log") }
func (h Home) StacksDir() string        { return filepath.Join(h.Dir, "stacks") }
func (h Home) BinDir() string           { return filepath.Join(h.Dir, "bin") }
func (h Home) Stack(name string) string { return filepath.Join(h.Dir, "stacks", name) }
