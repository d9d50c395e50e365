package autostart

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// systemd: a user unit, ~/.config/systemd/user/loams-stack-NAME.service.
// It starts at login, or at boot when lingering is on (`loginctl
// enable-linger`); doctor warns when it is off.
func init() {
	register(&Platform{
		OS:      "linux",
		Manager: "systemd",
		File: func(u User, s Service) string {
			dir := u.Getenv("XDG_CONFIG_HOME")
			if dir == "" || !filepath.IsAbs(dir) {
				dir = filepath.Join(u.HomeDir, ".config")
			}
			return filepath.Join(dir, "systemd", "user", UnitName(s.Stack))
		},
		Render: systemdUnit,
		// systemd refuses an executable path with these, however quoted.
		Unsafe:  "\"'\\",
		Program: systemdProgram,
		On: func(_ User, s Service, _ string) [][]string {
			return [][]string{userctl("daemon-reload"), userctl("enable", "--now", UnitName(s.Stack))}
		},
		Off: func(_ User, s Service, _ string) [][]string {
			return [][]string{userctl("disable", "--now", UnitName(s.Stack))}
		},
		AfterOff: func(User, Service, string) [][]string { return [][]string{userctl("daemon-reload")} },
		Start:    func(_ User, s Service, _ string) [][]string { return [][]string{userctl("start", UnitName(s.Stack))} },
		Stop:     func(_ User, s Service, _ string) [][]string { return [][]string{userctl("stop", UnitName(s.Stack))} },
		Active:   func(_ User, s Service) []string { return userctl("is-active", "--quiet", UnitName(s.Stack)) },
		Probe: func(u User) []string {
			// Under sudo and in most containers there is no user manager, and
			// XDG_RUNTIME_DIR (where systemctl --user finds it) is unset.
			if u.Getenv("XDG_RUNTIME_DIR") == "" {
				return nil
			}
			return userctl("show-environment")
		},
		Why: func(User) string {
			return "log in as the user (not through sudo or su) on a machine that runs systemd; in a container, start the stack with `loams stack start` or run `loams stack run NAME` from the container's own init"
		},
	})
}

// UnitName is the systemd unit of stack.
func UnitName(stack string) string { return "loams-stack-" + stack + ".service" }

func userctl(args ...string) []string { return append([]string{"systemctl", "--user"}, args...) }

func systemdUnit(s Service) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s for stack %s.\n# `loams stack autostart off %s` removes it.\n", Marker, s.Stack, s.Stack)
	fmt.Fprintf(&b, "[Unit]\nDescription=Loams stack %s\nDocumentation=https://loams.dev\n\n", s.Stack)
	b.WriteString("[Service]\nType=simple\n")
	fmt.Fprintf(&b, "ExecStart=%s stack run %s\n", execQuote(s.Loams), s.Stack)
	fmt.Fprintf(&b, "WorkingDirectory=%s\n", specifier(s.Dir))
	env := map[string]string{"LOAMS_HOME": s.Home}
	maps.Copy(env, s.Env)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		fmt.Fprintf(&b, "Environment=%s\n", execQuote(k+"="+env[k]))
	}
	// A server killed by a crash comes back; one stopped by `stack stop`
	// (SIGTERM, exit 0) stays stopped.
	b.WriteString("Restart=on-failure\nRestartSec=2s\n")
	// The server gets `stack stop`'s grace period before SIGKILL.
	b.WriteString("TimeoutStopSec=35s\n")
	fmt.Fprintf(&b, "StandardOutput=append:%s\nStandardError=append:%s\n\n", specifier(s.Log), specifier(s.Log))
	b.WriteString("[Install]\nWantedBy=default.target\n")
	return []byte(b.String())
}

// specifier escapes % (systemd's specifier character) in a plain value.
func specifier(v string) string { return strings.ReplaceAll(v, "%", "%%") }

// execQuote is the executable of ExecStart= or an Environment= assignment
// (neither expands $): double-quoted, with backslash, quote and % escaped,
// and every control character as a C escape systemd reads back (\n,
// \xNN). A value is never written raw: a newline in LOAMS_SECRETS would
// otherwise end the line and add one of its own (another ExecStartPre=).
func execQuote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '%':
			b.WriteString("%%")
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

var execStart = regexp.MustCompile(`(?m)^ExecStart="((?:[^"\\]|\\.)*)"`)

func systemdProgram(file []byte) string {
	m := execStart.FindSubmatch(file)
	if m == nil {
		return ""
	}
	r := strings.NewReplacer(`\\`, `\`, `\"`, `"`, "%%", "%")
	return r.Replace(string(m[1]))
}

// Lingering reports whether the user's manager runs without a login
// session (`loginctl enable-linger`): without it a unit starts at login,
// not at boot. known is false when loginctl cannot tell.
func Lingering(ctx context.Context, r Runner, u User) (on, known bool) {
	out, err := r.Run(ctx, []string{"loginctl", "show-user", strconv.Itoa(u.UID), "--property=Linger", "--value"})
	if err != nil {
		return false, false
	}
	switch strings.TrimSpace(out) {
	case "yes":
		return true, true
	case "no":
		return false, true
	}
	return false, false
}
