package autostart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
)

// launchd: a LaunchAgent, ~/Library/LaunchAgents/dev.loams.stack.NAME.plist,
// loaded with `launchctl bootstrap gui/<uid>`: `load`/`unload` fail on
// macOS 13 and later ("Load failed: 5: Input/output error").
func init() {
	register(&Platform{
		OS:      "darwin",
		Manager: "launchd",
		File: func(u User, s Service) string {
			return filepath.Join(u.HomeDir, "Library", "LaunchAgents", Label(s.Stack)+".plist")
		},
		Render:  launchdPlist,
		Program: launchdProgram,
		On: func(u User, _ Service, file string) [][]string {
			return [][]string{{"launchctl", "bootstrap", domain(u), file}}
		},
		Off: func(u User, s Service, _ string) [][]string {
			return [][]string{{"launchctl", "bootout", target(u, s)}}
		},
		Start: func(u User, s Service, _ string) [][]string {
			return [][]string{{"launchctl", "kickstart", target(u, s)}}
		},
		// SIGTERM: the server exits 0, and KeepAlive restarts only a failure.
		Stop: func(u User, s Service, _ string) [][]string {
			return [][]string{{"launchctl", "kill", "SIGTERM", target(u, s)}}
		},
		Active: func(u User, s Service) []string { return []string{"launchctl", "print", target(u, s)} },
		// Over ssh, or as root, there is no GUI domain to bootstrap into.
		Probe: func(u User) []string { return []string{"launchctl", "print", domain(u)} },
		Why: func(User) string {
			return "log in to the Mac's desktop as the user (a LaunchAgent needs the user's GUI session, which ssh and sudo do not have)"
		},
	})
}

// Label is the launchd label of stack.
func Label(stack string) string { return "dev.loams.stack." + stack }

func domain(u User) string            { return "gui/" + strconv.Itoa(u.UID) }
func target(u User, s Service) string { return domain(u) + "/" + Label(s.Stack) }

func launchdPlist(s Service) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	fmt.Fprintf(&b, "<!-- %s for stack %s; `loams stack autostart off %s` removes it. -->\n", Marker, s.Stack, s.Stack)
	b.WriteString("<plist version=\"1.0\">\n<dict>\n")
	key := func(k string) { fmt.Fprintf(&b, "\t<key>%s</key>\n", esc(k)) }
	str := func(indent, v string) { fmt.Fprintf(&b, "%s<string>%s</string>\n", indent, esc(v)) }
	key("Label")
	str("\t", Label(s.Stack))
	key("ProgramArguments")
	b.WriteString("\t<array>\n")
	for _, a := range []string{s.Loams, "stack", "run", s.Stack} {
		str("\t\t", a)
	}
	b.WriteString("\t</array>\n")
	key("EnvironmentVariables")
	b.WriteString("\t<dict>\n")
	env := map[string]string{"LOAMS_HOME": s.Home}
	maps.Copy(env, s.Env)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		fmt.Fprintf(&b, "\t\t<key>%s</key>\n", esc(k))
		str("\t\t", env[k])
	}
	b.WriteString("\t</dict>\n")
	key("WorkingDirectory")
	str("\t", s.Dir)
	key("RunAtLoad")
	b.WriteString("\t<true/>\n")
	// Restart after a crash only: `stack stop` (exit 0) stays stopped.
	key("KeepAlive")
	b.WriteString("\t<dict>\n\t\t<key>SuccessfulExit</key>\n\t\t<false/>\n\t</dict>\n")
	key("ThrottleInterval")
	b.WriteString("\t<integer>2</integer>\n")
	// The server gets `stack stop`'s grace period before SIGKILL.
	key("ExitTimeOut")
	b.WriteString("\t<integer>35</integer>\n")
	key("ProcessType")
	str("\t", "Background")
	key("StandardOutPath")
	str("\t", s.Log)
	key("StandardErrorPath")
	str("\t", s.Log)
	b.WriteString("</dict>\n</plist>\n")
	return b.Bytes()
}

func esc(v string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(v))
	return b.String()
}

var firstArg = regexp.MustCompile(`<key>ProgramArguments</key>\s*<array>\s*<string>([^<]*)</string>`)

func launchdProgram(file []byte) string {
	m := firstArg.FindSubmatch(file)
	if m == nil {
		return ""
	}
	return unesc(m[1])
}

// unesc undoes esc (xml.EscapeText), through the XML decoder.
func unesc(v []byte) string {
	var s string
	if err := xml.Unmarshal(append(append([]byte("<s>"), v...), "</s>"...), &s); err != nil {
		return string(v)
	}
	return s
}
