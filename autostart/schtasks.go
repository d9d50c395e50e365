package autostart

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf16"
)

// Windows has no per-user service: a task that runs at the user's logon,
// hidden, restarted on failure, registered with `schtasks /Create /XML`.
// The XML kept in the stack's directory is the registration's record.
func init() {
	register(&Platform{
		OS:      "windows",
		Manager: "Task Scheduler",
		File: func(_ User, s Service) string {
			return filepath.Join(s.Dir, "autostart-task.xml")
		},
		Render:  taskXML,
		Encode:  utf16LE,
		Program: taskProgram,
		On: func(_ User, s Service, file string) [][]string {
			return [][]string{{"schtasks", "/Create", "/TN", TaskName(s.Stack), "/XML", file, "/F"}, {"schtasks", "/Run", "/TN", TaskName(s.Stack)}}
		},
		Off: func(_ User, s Service, _ string) [][]string {
			return [][]string{{"schtasks", "/Delete", "/TN", TaskName(s.Stack), "/F"}}
		},
		Start: func(_ User, s Service, _ string) [][]string {
			return [][]string{{"schtasks", "/Run", "/TN", TaskName(s.Stack)}}
		},
		Stop: func(_ User, s Service, _ string) [][]string {
			return [][]string{{"schtasks", "/End", "/TN", TaskName(s.Stack)}}
		},
		Active: func(_ User, s Service) []string { return []string{"schtasks", "/Query", "/TN", TaskName(s.Stack)} },
		Why:    func(User) string { return "" },
	})
}

// TaskName is the scheduled task of stack, in a folder of loams' own.
func TaskName(stack string) string { return `\loams\stack-` + stack }

// taskXML is the task as text; the task runs `loams stack run NAME` with
// --log (a task has no output redirection of its own) and --loams-home
// (nor an environment).
func taskXML(s Service) []byte {
	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n")
	fmt.Fprintf(&b, "<!-- %s for stack %s; `loams stack autostart off %s` removes it. -->\n", Marker, s.Stack, s.Stack)
	b.WriteString(`<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">` + "\n")
	fmt.Fprintf(&b, "  <RegistrationInfo>\n    <Description>Loams stack %s</Description>\n    <URI>%s</URI>\n  </RegistrationInfo>\n", esc(s.Stack), esc(TaskName(s.Stack)))
	b.WriteString("  <Triggers>\n    <LogonTrigger>\n      <Enabled>true</Enabled>\n")
	if s.UserID != "" {
		fmt.Fprintf(&b, "      <UserId>%s</UserId>\n", esc(s.UserID))
	}
	b.WriteString("    </LogonTrigger>\n  </Triggers>\n")
	b.WriteString("  <Principals>\n    <Principal id=\"Author\">\n      <LogonType>InteractiveToken</LogonType>\n      <RunLevel>LeastPrivilege</RunLevel>\n    </Principal>\n  </Principals>\n")
	b.WriteString("  <Settings>\n    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>\n" +
		"    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>\n    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>\n" +
		"    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>\n    <Hidden>true</Hidden>\n" +
		"    <RestartOnFailure>\n      <Interval>PT1M</Interval>\n      <Count>999</Count>\n    </RestartOnFailure>\n" +
		"    <Enabled>true</Enabled>\n  </Settings>\n")
	args := "stack run " + s.Stack + " --log --loams-home " + winQuote(s.Home)
	fmt.Fprintf(&b, "  <Actions Context=\"Author\">\n    <Exec>\n      <Command>%s</Command>\n      <Arguments>%s</Arguments>\n      <WorkingDirectory>%s</WorkingDirectory>\n    </Exec>\n  </Actions>\n",
		esc(s.Loams), esc(args), esc(s.Dir))
	b.WriteString("</Task>\n")
	return b.Bytes()
}

// winQuote quotes one argument for the Windows command line rules.
func winQuote(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\"") {
		return v
	}
	return `"` + strings.ReplaceAll(v, `"`, `\"`) + `"`
}

// utf16LE is what schtasks reads without complaint: UTF-16LE with a BOM,
// CRLF line ends.
func utf16LE(text []byte) []byte {
	u := utf16.Encode([]rune(strings.ReplaceAll(string(text), "\n", "\r\n")))
	out := []byte{0xFF, 0xFE}
	for _, c := range u {
		out = append(out, byte(c), byte(c>>8))
	}
	return out
}

var taskCommand = regexp.MustCompile(`<Command>([^<]*)</Command>`)

func taskProgram(file []byte) string {
	m := taskCommand.FindSubmatch([]byte(decodeUTF16(file)))
	if m == nil {
		return ""
	}
	return unesc(m[1])
}
