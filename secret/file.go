package secret

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// File stores each key in $LOAMS_HOME/stacks/<name>/secrets/api_key (0600 in
// a 0700 directory), for machines without a usable keyring.
type File struct {
	Home  home.Home
	Scope Scope // stacks (zero value) or profiles
}

func (f File) path(stack string) string {
	return filepath.Join(f.Scope.dir(f.Home, stack), "secrets", "api_key")
}

func (f File) Get(_ context.Context, stack string) (Secret, error) {
	b, err := os.ReadFile(f.path(stack))
	if errors.Is(err, fs.ErrNotExist) {
		return Secret{}, ErrNotFound
	}
	if err != nil {
		return Secret{}, fmt.Errorf("read the key of stack %s: %w", stack, err)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return Secret{}, ErrNotFound
	}
	return New(v), nil
}

// Set creates the directory with 0700 and the file with 0600 before any byte
// of the key is written.
func (f File) Set(_ context.Context, stack string, s Secret) error {
	dir := filepath.Dir(f.path(stack))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	return safefile.Write(f.path(stack), []byte(s.value+"\n"), 0o600)
}

func (f File) Delete(_ context.Context, stack string) error {
	err := os.Remove(f.path(stack))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func (f File) Backend() string { return "file" }
