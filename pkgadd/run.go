package pkgadd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/shellquote"
)

// tailSize is how much of the package manager's output a result keeps.
const tailSize = 4 << 10

// Add prepares and runs the request (or only prepares it on a dry run).
func Add(ctx context.Context, req Request) (*Result, error) {
	p, err := Prepare(req)
	if err != nil {
		return nil, err
	}
	return Run(ctx, p, req)
}

// Run executes a prepared plan. A non-zero exit of the package manager is a
// result (exit_code, output_tail), not an error: the caller decides. Two
// failures are errors because their cause is known: the registry does not
// have the package (package_not_published) and pip's route with no
// virtual environment (ecosystem_unsupported, nothing run).
func Run(ctx context.Context, p *Plan, req Request) (*Result, error) {
	res := &Result{
		Ecosystem: p.Registry, Language: p.Language, PackageManager: p.Name,
		Command: p.Argv, ProjectDir: p.Dir, Manifest: p.manifestPath(),
		PackageManagerFound: p.Path != "", Pinned: p.Pinned, DryRun: req.DryRun, Dev: req.Dev,
		Notes: p.Notes,
	}
	if req.DryRun {
		if !res.PackageManagerFound && p.Name != "pip" {
			res.Notes = append(res.Notes, p.Name+" is not installed: "+p.Install)
		}
		return res, nil
	}
	if p.Path == "" {
		if p.Name == "pip" {
			own := append([]string{"python3"}, p.Argv[1:]...)
			none := "no virtual environment (.venv, venv or $VIRTUAL_ENV)"
			if len(p.VenvIgnored) > 0 {
				none = "no virtual environment loams may run (" + strings.Join(p.VenvIgnored, "; ") + ")"
			}
			return nil, errs.New(errs.EcosystemUnsupported,
				"create one with `python3 -m venv .venv` and run the command again; or run `"+shellquote.Join(own)+"` yourself in the environment you want",
				"%s has %s, and loams never installs into the system Python", p.Dir, none).
				With("project_dir", p.Dir).With("command", p.Argv).With("ignored", p.VenvIgnored).
				ForAgent(errs.AskUser("python3 -m venv .venv") + ", then call add_package again")
		}
		return nil, errs.New(errs.EcosystemUnsupported, p.Install, "%s is not installed (looked on PATH)", p.Name).
			With("package_manager", p.Name).With("command", p.Argv).ForAgent(errs.AskUser(installCommand(p.Install)))
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	manifest := filepath.Join(p.Dir, p.Manifest)
	before := digest(manifest)
	tail := &tailBuffer{max: tailSize}
	cmd := exec.CommandContext(ctx, p.Path, p.Argv[1:]...)
	cmd.Dir = p.Dir
	cmd.Env = childEnv(req.Getenv, p.Name == "pip")
	cmd.Stdin = nil // package managers must not wait for a question nobody sees
	cmd.Stdout, cmd.Stderr = tail, tail
	killGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	res.OutputTail = tail.String()
	res.ManifestChanged = before != digest(manifest)
	if ctx.Err() == context.DeadlineExceeded {
		return nil, errs.New(errs.Timeout, "run the command yourself to see what it waits for: "+strings.Join(p.Argv, " "),
			"%s did not finish within %s and was stopped", p.Name, timeout).
			With("command", p.Argv).With("output_tail", res.OutputTail)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		res.ExitCode = new(int)
	case errors.As(err, &exit):
		code := exit.ExitCode()
		res.ExitCode = &code
		if nf := notPublished(p, res.OutputTail); nf != nil {
			return nil, nf
		}
		return res, nil
	default:
		return nil, errs.New(errs.EcosystemUnsupported, p.Install, "cannot run %s: %v", p.Name, err).Wrap(err)
	}
	res.Installed = true
	if p.Name == "pip" {
		changed, err := writeRequirements(p.Dir, p.Requirements)
		if err != nil {
			return nil, err
		}
		res.ManifestChanged = changed
		if _, err := os.Stat(manifest); err != nil {
			res.Notes = append(res.Notes, "installed into the virtual environment; add "+strings.Join(p.Requirements, ", ")+" to pyproject.toml's dependencies yourself")
		}
	}
	return res, nil
}

// installCommand pulls the first `command` out of an install hint.
func installCommand(hint string) string {
	if _, rest, ok := strings.Cut(hint, "`"); ok {
		if cmd, _, ok := strings.Cut(rest, "`"); ok {
			return cmd
		}
	}
	return hint
}

// passedEnv are the variables a caller's environment (a test's, an MCP
// client's) may set for the child: where the registries are and how
// hard to retry.
var passedEnv = []string{"PATH", "HOME", "VIRTUAL_ENV", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CONFIG_FILE",
	"PIP_CACHE_DIR", "PIP_RETRIES", "PIP_TIMEOUT", "npm_config_registry", "npm_config_cache", "npm_config_fetch_retries",
	"npm_config_userconfig", "UV_INDEX_URL", "UV_DEFAULT_INDEX", "GOPROXY", "GOFLAGS", "GOPATH", "GOMODCACHE", "CARGO_HOME"}

// childEnv is our environment with the caller's values of passedEnv
// (tests give their own PATH of fake package managers and registries).
// pip runs without asking questions or checking PyPI for a newer pip.
func childEnv(getenv func(string) string, pip bool) []string {
	env := os.Environ()
	for _, k := range passedEnv {
		if v := getenv(k); v != os.Getenv(k) && v != "" {
			env = append(env, k+"="+v)
		}
	}
	if pip {
		env = append(env, "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INPUT=1")
	}
	return env
}

func digest(path string) [32]byte {
	b, err := os.ReadFile(path)
	if err != nil {
		return [32]byte{}
	}
	return sha256.Sum256(b)
}

// lookPath finds name on path without consulting the process's own PATH.
func lookPath(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		for _, cand := range executableNames(filepath.Join(dir, name)) {
			if fi, err := os.Stat(cand); err == nil && !fi.IsDir() && isExecutable(fi) {
				if abs, err := filepath.Abs(cand); err == nil {
					return abs
				}
			}
		}
	}
	return ""
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	lost bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.lost = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if t.lost {
		// Do not start in the middle of a UTF-8 sequence or a line.
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
	}
	return strings.ToValidUTF8(string(b), "")
}
