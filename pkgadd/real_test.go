package pkgadd

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

// homeless is exec.Command with a HOME of its own: python3 through a pyenv
// shim asks rustup, which writes ~/.rustup, and `go test` leaves the HOME
// it runs under as it found it.
func homeless(t *testing.T, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	return cmd
}

// withEnv is the process's environment with overrides, as a Getenv.
func withEnv(over map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := over[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
}

// Issue 21: a Python app with .venv and requirements.txt gets the pinned
// client installed into that venv and pinned in requirements.txt; a
// package the index does not have is package_not_published naming the
// index. A real venv and pip, a PEP 503 index on 127.0.0.1.
func TestPipInstallsIntoTheProjectVenv(t *testing.T) {
	t.Parallel()
	if err := homeless(t, "python3", "-c", "import venv, ensurepip").Run(); err != nil {
		t.Skip("python3 with venv and ensurepip is needed:", err)
	}
	file, data := wheel(t, "qdrant-client", "qdrant_client", "1.15.2")
	idx := simpleIndex(t, "qdrant-client", file, data)
	dir := t.TempDir()
	if out, err := homeless(t, "python3", "-m", "venv", filepath.Join(dir, ".venv")).CombinedOutput(); err != nil {
		t.Fatalf("python3 -m venv: %v\n%s", err, out)
	}
	reqs := "# the app\nflask  # web\nqdrant-client==1.7.0\n"
	os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte(reqs), 0o644)
	// HOME too: see homeless.
	getenv := withEnv(map[string]string{"PIP_INDEX_URL": idx.URL + "/simple/", "PIP_CACHE_DIR": t.TempDir(), "VIRTUAL_ENV": "", "HOME": t.TempDir()})

	// A dry run plans and touches nothing.
	res, err := Add(context.Background(), Request{Packages: []string{"qdrant"}, Language: "python", DryRun: true, ProjectDir: dir, Version: "0.1.0", Getenv: getenv})
	if err != nil || res.Installed || !res.PackageManagerFound || res.Command[0] != ".venv/bin/python" {
		t.Fatalf("dry run: %+v %v", res, err)
	}

	res, err = Add(context.Background(), Request{Packages: []string{"qdrant"}, Language: "python", ProjectDir: dir, Version: "0.1.0", Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if *res.ExitCode != 0 || !res.Installed || !res.ManifestChanged || res.Manifest != "requirements.txt" {
		t.Fatalf("result %+v", res)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "requirements.txt"))
	if want := "# the app\nflask  # web\nqdrant-client>=1.15,<2\n"; string(b) != want {
		t.Fatalf("requirements.txt:\n%s\nwant:\n%s", b, want)
	}
	out, err := homeless(t, venvPython(filepath.Join(dir, ".venv")), "-c", "import qdrant_client; print(qdrant_client.__version__)").Output()
	if err != nil || strings.TrimSpace(string(out)) != "1.15.2" {
		t.Fatalf("the venv does not import the client: %q %v", out, err)
	}

	// The Loams SDK is not on this index: package_not_published, nothing written.
	_, err = Add(context.Background(), Request{Packages: []string{"sdk"}, ProjectDir: dir, Version: "0.1.0", Getenv: getenv})
	e := errs.As(err)
	if !errs.Is(err, errs.PackageNotPublished) || e.ExitCode() != 6 || e.Details["registry"] != idx.URL+"/simple" ||
		!strings.Contains(e.Message, "loams") || !strings.Contains(e.Hint, "loams pkg add qdrant") {
		t.Fatalf("got %v (details %v, hint %q)", err, e.Details, e.Hint)
	}
	if b2, _ := os.ReadFile(filepath.Join(dir, "requirements.txt")); string(b2) != string(b) {
		t.Fatalf("requirements.txt changed by a failed install: %q", b2)
	}
}

// npmEnv isolates npm from the user's config and cache, pointed at registry.
func npmEnv(t *testing.T, registry string) func(string) string {
	t.Helper()
	rc := filepath.Join(t.TempDir(), "npmrc")
	os.WriteFile(rc, []byte("audit=false\nfund=false\nupdate-notifier=false\nfetch-retries=0\n"), 0o600)
	return withEnv(map[string]string{"npm_config_registry": registry, "npm_config_userconfig": rc, "npm_config_cache": t.TempDir(), "HOME": t.TempDir()})
}

func npmProject(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is needed:", err)
	}
	dir := t.TempDir()
	cmd := exec.Command("npm", "init", "-y")
	// npm logs and its update notifier write under HOME: keep them here.
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "HOME="+t.TempDir(), "npm_config_cache="+t.TempDir(), "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm init -y: %v\n%s", err, out)
	}
	return dir
}

// Issue 21: in a fresh `npm init -y` app, `pkg add sdk` is
// package_not_published (exit 6) naming the registry while @loams/client is
// unpublished, and `pkg add qdrant` installs the pinned client. A real npm
// against a registry on 127.0.0.1.
func TestNpmRegistry404IsPackageNotPublished(t *testing.T) {
	t.Parallel()
	dir := npmProject(t)
	// 2.0.0 is the latest: the pin must keep the app on the checked major.
	reg := npmRegistry(t, "@qdrant/js-client-rest", "1.18.0", "1.19.3", "2.0.0")
	getenv := npmEnv(t, reg.URL+"/")

	_, err := Add(context.Background(), Request{Packages: []string{"sdk"}, ProjectDir: dir, Version: "0.1.0", Getenv: getenv})
	e := errs.As(err)
	if !errs.Is(err, errs.PackageNotPublished) || e.ExitCode() != 6 || e.Details["registry"] != reg.URL ||
		!strings.Contains(e.Message, "@loams/client") || !strings.Contains(e.Message, reg.URL) ||
		!strings.Contains(e.Hint, "loams pkg add qdrant") || !strings.Contains(e.AgentHint, "add_package") {
		t.Fatalf("got %v\ndetails %v\nhint %q", err, e.Details, e.Hint)
	}

	res, err := Add(context.Background(), Request{Packages: []string{"qdrant"}, ProjectDir: dir, Version: "0.1.0", Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Installed || !res.ManifestChanged {
		t.Fatalf("result %+v", res)
	}
	var pj struct{ Dependencies map[string]string }
	b, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	json.Unmarshal(b, &pj)
	if got := pj.Dependencies["@qdrant/js-client-rest"]; got != "^1.19.3" { // npm saves ^ of what it installed
		t.Fatalf("package.json pins %q, want ^1.19.3\n%s", got, b)
	}
	b, err = os.ReadFile(filepath.Join(dir, "node_modules", "@qdrant", "js-client-rest", "package.json"))
	if err != nil || !strings.Contains(string(b), `"1.19.3"`) {
		t.Fatalf("installed %s %v, want 1.19.3", b, err)
	}
}

// A registry that cannot be reached is not "not published": it stays a
// failed run the caller reports as retryable.
func TestNpmNetworkFailureStaysRetryable(t *testing.T) {
	t.Parallel()
	dir := npmProject(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	res, err := Add(context.Background(), Request{Packages: []string{"sdk"}, ProjectDir: dir, Version: "0.1.0", Getenv: npmEnv(t, "http://"+addr+"/")})
	if err != nil {
		t.Fatalf("want a failed result, got %v", err)
	}
	if *res.ExitCode == 0 || res.Installed || !strings.Contains(res.OutputTail, "ECONNREFUSED") {
		t.Fatalf("result %+v", res)
	}
}
