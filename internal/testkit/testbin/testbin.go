// Package testbin builds the repository's programs once per test process,
// so tests can drive the real loams binary (and fixtures such as the
// stand-in server) as child processes.
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	mu     sync.Mutex
	built  = map[string]string{}
	errs   = map[string]error{}
	outDir string
	// madeDirs are the cache directories Build created (~/.cache under a
	// scratch HOME): Cleanup removes them again when empty, so `go test`
	// leaves HOME as it found it.
	madeDirs []string
)

// Loams returns the path of a freshly built loams binary.
func Loams(t testing.TB) string { return Build(t, "./cmd/loams") }

// TestTags are the build tags of every test build: loamstest turns on the
// test seams (serverbin/seam_loamstest.go: a trusted test key, a moved
// root for /usr/bin/loams), which release builds never have.
const TestTags = "loamstest"

// Build compiles the package at pkg (relative to the module root) once per
// process, with the test seams, and returns the binary's path. Extra
// ldflags may be given.
func Build(t testing.TB, pkg string, ldflags ...string) string {
	t.Helper()
	return BuildTagged(t, pkg, TestTags, ldflags...)
}

// BuildTagged is Build with other build tags ("" = a release build, which
// must ignore the test seams).
func BuildTagged(t testing.TB, pkg, tags string, ldflags ...string) string {
	t.Helper()
	key := pkg + "|" + tags + "|" + strings.Join(ldflags, " ")
	mu.Lock()
	defer mu.Unlock()
	if p, ok := built[key]; ok {
		return p
	}
	if err, ok := errs[key]; ok {
		t.Fatal(err)
	}
	if outDir == "" {
		// Not under the temporary directory: `loams mcp install` refuses
		// to register a binary there (it looks like `go run`), and tests
		// drive the binary as a user's installed copy.
		parent, err := os.UserCacheDir()
		if err == nil {
			for d := parent; !exists(d) && filepath.Dir(d) != d; d = filepath.Dir(d) {
				madeDirs = append(madeDirs, d)
			}
		}
		if err != nil || os.MkdirAll(parent, 0o755) != nil {
			parent = ""
		}
		d, err := os.MkdirTemp(parent, "loams-testbin-")
		if err != nil && parent != "" { // another package's Cleanup removed the empty parent just now
			os.MkdirAll(parent, 0o755)
			d, err = os.MkdirTemp(parent, "loams-testbin-")
		}
		if err != nil {
			t.Fatal(err)
		}
		outDir = d
	}
	out := filepath.Join(outDir, filepath.Base(pkg)+"-"+strconv.Itoa(len(built)))
	args := []string{"build", "-o", out}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	if len(ldflags) > 0 {
		args = append(args, "-ldflags", strings.Join(ldflags, " "))
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = moduleRoot()
	if b, err := cmd.CombinedOutput(); err != nil {
		errs[key] = err
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	built[key] = out
	return out
}

// Cleanup removes the built binaries; call it from TestMain after m.Run.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if outDir != "" {
		os.RemoveAll(outDir)
		for _, d := range madeDirs { // deepest first; a directory in use stays
			if os.Remove(d) != nil {
				break
			}
		}
	}
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Symlink makes path (and its directory) a symbolic link to target and
// returns path.
func Symlink(t testing.TB, target, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	return path
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
