// Package autostart registers a stack with the user's own service manager
// (a systemd user unit, a launchd agent, a logon task), so that `loams
// stack run NAME` starts at login and comes back after a crash. Each
// platform is one row of data in its own file: where its file goes, the
// file itself, and the commands that turn it on, off, start and stop it.
// Stacks (stacks.go) drives those for one LOAMS_HOME, below both faces.
package autostart

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// Service is what a registration runs: `<Loams> stack run <Stack>` with
// LOAMS_HOME set, its output appended to Log. Every path is absolute: a
// service manager has no working directory or PATH of the user's shell.
type Service struct {
	Stack string
	Loams string // the loams binary
	Home  string // LOAMS_HOME
	Dir   string // the stack's directory (working directory)
	Log   string // the stack's server.log
	// Server is the stack's server binary (stack.toml), which `stack run`
	// starts: it must be absolute too.
	Server string
	Env    map[string]string // more environment (LOAMS_SECRETS), never a secret
	// UserID is DOMAIN\user, whose logon starts a Windows task.
	UserID string
}

// User is where the current user's registrations live.
type User struct {
	HomeDir string // the user's home directory
	UID     int
	Getenv  func(string) string
}

// Platform is one service manager, as data.
type Platform struct {
	OS      string // GOOS: linux, darwin, windows
	Manager string // what the user calls it: systemd, launchd, Task Scheduler
	// File is where the registration file of stack goes.
	File func(u User, s Service) string
	// Render is the file's bytes as they are shown (UTF-8 text).
	Render func(s Service) []byte
	// Encode turns the rendered text into the bytes written to disk
	// (nil: as rendered). schtasks reads its XML as UTF-16.
	Encode func([]byte) []byte
	// Program reads back the loams path a registration file runs
	// (doctor: was loams moved?).
	Program func(file []byte) string
	// The commands, each an argv, of each operation. Off runs before the
	// file is removed, AfterOff after.
	On, Off, AfterOff, Start, Stop func(u User, s Service, file string) [][]string
	// Probe is the command whose success says the manager is reachable
	// (nil: always reachable); Why explains a failure to a person.
	Probe func(u User) []string
	Why   func(u User) string
	// Unsafe lists characters the manager cannot take in a path.
	Unsafe string
	// Active is the command whose success says the stack runs under it.
	Active func(u User, s Service) []string
}

var platforms = map[string]*Platform{}

func register(p *Platform) { platforms[p.OS] = p }

// For is the platform of goos; no service manager is platform_unsupported.
func For(goos string) (*Platform, error) {
	if p, ok := platforms[goos]; ok {
		return p, nil
	}
	return nil, errs.New(errs.PlatformUnsupported, "run the stack with `loams stack start` after each login, or call `loams stack run NAME` from your own init system",
		"loams cannot register stacks with a service manager on %s", goos).With("os", goos)
}

// OSes lists the platforms, sorted (for --os and its usage message).
func OSes() []string {
	var out []string
	for k := range platforms {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Check refuses a relative path, or one the manager cannot express.
func (p *Platform) Check(s Service) error {
	for _, path := range []string{s.Loams, s.Home, s.Dir, s.Log, s.Server} {
		bad := !filepath.IsAbs(path) && !(p.OS == "windows" && strings.Contains(path, `:\`))
		if bad || p.Unsafe != "" && strings.ContainsAny(path, p.Unsafe) || strings.ContainsFunc(path, unicode.IsControl) {
			return errs.New(errs.Usage, "use absolute paths without quotes or backslashes for LOAMS_HOME, the loams binary and the stack's server binary",
				"%s cannot run %q: %s wants absolute paths without %q", p.Manager, path, p.Manager, p.Unsafe).With("path", path)
		}
	}
	return nil
}

// Bytes is the file as written to disk.
func (p *Platform) Bytes(s Service) []byte {
	text := p.Render(s)
	if p.Encode != nil {
		return p.Encode(text)
	}
	return text
}

// Registered reports whether stack has a registration file loams wrote.
func (p *Platform) Registered(u User, s Service) bool {
	_, err := os.Stat(p.File(u, s))
	return err == nil
}

// Runner runs service manager commands. Its output is kept for the error
// when one fails; Timeout bounds each (a wedged manager must not hang loams).
type Runner struct {
	Timeout time.Duration
}

// Run runs argv and returns its combined output.
func (r Runner) Run(ctx context.Context, argv []string) (string, error) {
	timeout := r.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return strings.TrimSpace(out.String()), err
}

// RunAll runs each command in turn and stops at the first failure, which
// is reported as service_manager_unavailable with the command and its output.
func (r Runner) RunAll(ctx context.Context, p *Platform, cmds [][]string) error {
	for _, argv := range cmds {
		if out, err := r.Run(ctx, argv); err != nil {
			return failed(p, argv, out, err)
		}
	}
	return nil
}

func failed(p *Platform, argv []string, out string, err error) error {
	line := strings.Join(argv, " ")
	return errs.New(errs.ServiceManagerUnavailable, "run `"+line+"` yourself to see why, fix it and run the loams command again",
		"%s: `%s` failed: %v%s", p.Manager, line, err, suffix(out)).With("command", argv).With("output", out)
}

func suffix(out string) string {
	if out == "" {
		return ""
	}
	return ": " + out
}

// Check refuses when the service manager cannot be reached, before
// anything is written: a unit that nothing runs is worse than none.
func (r Runner) Check(ctx context.Context, p *Platform, u User) error {
	if p.Probe == nil {
		return nil
	}
	argv := p.Probe(u)
	if argv == nil {
		return unavailable(p, u, "")
	}
	if out, err := r.Run(ctx, argv); err != nil {
		return unavailable(p, u, fmt.Sprintf("`%s`: %v%s", strings.Join(argv, " "), err, suffix(out)))
	}
	return nil
}

func unavailable(p *Platform, u User, detail string) error {
	msg := "no " + p.Manager + " user service manager is reachable"
	if detail != "" {
		msg += " (" + detail + ")"
	}
	return errs.New(errs.ServiceManagerUnavailable, p.Why(u), "%s", msg).With("manager", p.Manager)
}

// Write puts the registration file of stack in place atomically (0644:
// service managers read it as the user) and never over a file loams did
// not write for that stack.
func Write(path, stack string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && !ours(old, stack) {
		return errs.New(errs.FileConflict, "move "+path+" aside, or remove it if it is not needed, and run the command again",
			"%s exists and was not written by loams for stack %s", path, stack).With("path", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return errs.FromOS(err)
	}
	return safefile.Write(path, data, 0o644)
}

// Remove deletes the registration file loams wrote for stack; a missing
// one is fine, and any other file there is left in place.
func Remove(path, stack string) error {
	old, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err == nil && !ours(old, stack) {
		return errs.New(errs.FileConflict, "remove "+path+" yourself if it is not needed", "%s was not written by loams for stack %s; left in place", path, stack).With("path", path)
	}
	return errs.FromOS(os.Remove(path))
}

// Marker is in every file loams writes, so it never removes or overwrites
// a file someone else wrote.
const Marker = "Written by `loams stack autostart on`"

// ours reports whether file is a registration loams wrote for stack, by
// its content: the header loams puts in its first lines names the marker
// and this very stack (in UTF-8, or the UTF-16 of a task file). The marker
// text merely appearing somewhere (a user's own unit quoting it, a unit of
// another stack) is not enough. The name is the caller's: p.File.
func ours(file []byte, stack string) bool {
	text := decodeUTF16(file)
	head := strings.SplitN(text, "\n", 4)
	want := Marker + " for stack " + stack
	for _, l := range head[:min(len(head), 3)] {
		l = strings.TrimRight(l, "\r")
		if l == "# "+want+"." || strings.HasPrefix(l, "<!-- "+want+"; ") {
			return true
		}
	}
	return false
}

// decodeUTF16 reads a task file's UTF-16LE (with its BOM) as text; other
// bytes are returned as they are.
func decodeUTF16(file []byte) string {
	if !bytes.HasPrefix(file, []byte{0xFF, 0xFE}) {
		return string(file)
	}
	u := make([]uint16, 0, len(file)/2)
	for i := 2; i+1 < len(file); i += 2 {
		u = append(u, uint16(file[i])|uint16(file[i+1])<<8)
	}
	return string(utf16.Decode(u))
}
