package autostart

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// service is a registration whose paths have the characters that need
// quoting: a space, a % and a $.
func service(t *testing.T) Service {
	t.Helper()
	dir := filepath.Join(t.TempDir(), `my odd 100% $dir`)
	bin := filepath.Join(dir, "bin", "loams")
	stackDir := filepath.Join(dir, "home", "stacks", "dev")
	for _, d := range []string{filepath.Dir(bin), filepath.Join(stackDir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return Service{Stack: "dev", Loams: bin, Home: filepath.Join(dir, "home"), Dir: stackDir,
		Log: filepath.Join(stackDir, "logs", "server.log"), Server: "/usr/bin/loams", Env: map[string]string{"LOAMS_SECRETS": "file"}, UserID: `HOST\ann`}
}

func TestProgramReadsBackTheBinary(t *testing.T) {
	s := service(t)
	for _, goos := range OSes() {
		p, _ := For(goos)
		if got := p.Program(p.Bytes(s)); got != s.Loams {
			t.Errorf("%s: Program = %q, want %q", goos, got, s.Loams)
		}
		if !ours(p.Bytes(s), s.Stack) {
			t.Errorf("%s: the written file has no marker", goos)
		}
	}
}

// systemd's own checker accepts the unit: it parses every line, resolves
// the ExecStart binary and checks the [Install] section.
func TestSystemdUnitVerifies(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skip("systemd-analyze is not installed (apt-get install systemd)")
	}
	s := service(t)
	p, _ := For("linux")
	unit := p.Render(s)
	for _, want := range []string{"Restart=on-failure", "WantedBy=default.target", "StandardOutput=append:", "Environment=\"LOAMS_HOME="} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("unit lacks %q:\n%s", want, unit)
		}
	}
	path := filepath.Join(t.TempDir(), UnitName(s.Stack))
	if err := os.WriteFile(path, unit, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("systemd-analyze", "verify", "--man=no", path).CombinedOutput()
	if err != nil || strings.Contains(string(out), UnitName(s.Stack)) {
		t.Fatalf("systemd-analyze verify: %v\n%s\n%s", err, out, unit)
	}
	// And it says so when the binary is gone: the check can fail.
	os.Remove(s.Loams)
	if out, err := exec.Command("systemd-analyze", "verify", "--man=no", path).CombinedOutput(); err == nil {
		t.Errorf("verify passed a unit whose binary is missing:\n%s", out)
	}
}

// A real plist parser (Python's plistlib) reads the agent back as launchd
// would: the keys, the types and the quoted paths.
func TestLaunchdPlistParses(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	s := service(t)
	p, _ := For("darwin")
	path := filepath.Join(t.TempDir(), Label(s.Stack)+".plist")
	if err := os.WriteFile(path, p.Render(s), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import json, plistlib, sys
with open(sys.argv[1], "rb") as f: print(json.dumps(plistlib.load(f)))`
	out, err := exec.Command("python3", "-c", script, path).Output()
	if err != nil {
		t.Fatalf("plistlib: %v", err)
	}
	got := string(out)
	for _, want := range []string{`"Label": "dev.loams.stack.dev"`, `"RunAtLoad": true`, `"KeepAlive": {"SuccessfulExit": false}`,
		`"StandardOutPath": ` + jsonString(s.Log), `"ProgramArguments": [` + jsonString(s.Loams) + `, "stack", "run", "dev"]`,
		`"LOAMS_HOME": ` + jsonString(s.Home)} {
		if !strings.Contains(got, want) {
			t.Errorf("parsed plist lacks %s:\n%s", want, got)
		}
	}
}

func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// The task XML parses as XML (Go's decoder, after the UTF-16 the file is
// written in), and has the settings the issue asks for.
func TestTaskXMLParses(t *testing.T) {
	s := service(t)
	p, _ := For("windows")
	data := p.Bytes(s)
	if data[0] != 0xFF || data[1] != 0xFE {
		t.Fatalf("task file is not UTF-16LE with a BOM")
	}
	var task struct {
		Logon    string `xml:"Triggers>LogonTrigger>UserId"`
		Hidden   bool   `xml:"Settings>Hidden"`
		Restart  int    `xml:"Settings>RestartOnFailure>Count"`
		Command  string `xml:"Actions>Exec>Command"`
		Argument string `xml:"Actions>Exec>Arguments"`
	}
	text := strings.Replace(string(p.Render(s)), `encoding="UTF-16"`, `encoding="UTF-8"`, 1)
	if err := xml.Unmarshal([]byte(text), &task); err != nil {
		t.Fatal(err)
	}
	if !task.Hidden || task.Restart == 0 || task.Command != s.Loams || task.Logon != `HOST\ann` ||
		!strings.HasPrefix(task.Argument, "stack run dev --log --loams-home \"") {
		t.Errorf("task: %+v", task)
	}
}

func TestPathsSystemdCannotRunAreRefused(t *testing.T) {
	s := service(t)
	p, _ := For("linux")
	if err := p.Check(s); err != nil {
		t.Fatal(err)
	}
	s.Home = `/home/a "b"/.loams`
	if err := p.Check(s); err == nil {
		t.Error("a quote in LOAMS_HOME passed")
	}
	s.Home = "relative/.loams"
	if err := p.Check(s); err == nil {
		t.Error("a relative LOAMS_HOME passed")
	}
}

func TestWriteNeverClobbers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.service")
	head := "# " + Marker + " for stack dev.\n"
	if err := Write(path, "dev", []byte(head+"A\n")); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, "dev", []byte(head+"B\n")); err != nil {
		t.Fatalf("rewriting our own file: %v", err)
	}
	if err := os.WriteFile(path, []byte("[Unit]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, "dev", []byte(head)); err == nil || !strings.Contains(err.Error(), "not written by loams") {
		t.Errorf("overwrote a foreign file: %v", err)
	}
	if err := Remove(path, "dev"); err == nil {
		t.Errorf("removed a foreign file")
	}
	if b, _ := os.ReadFile(path); string(b) != "[Unit]\n" {
		t.Errorf("foreign file changed: %q", b)
	}
}

// Only a file loams wrote for this stack is ours, by its header: the
// marker text quoted anywhere else in a user's unit, or a header for
// another stack, is not enough for `autostart off` to delete it.
func TestOnlyOurOwnUnitIsRemoved(t *testing.T) {
	s := service(t)
	for _, goos := range OSes() {
		p, _ := For(goos)
		if !ours(p.Bytes(s), "dev") {
			t.Errorf("%s: loams's own file is not recognised", goos)
		}
		other := s
		other.Stack = "prod"
		if ours(p.Bytes(other), "dev") {
			t.Errorf("%s: stack prod's file taken for dev's", goos)
		}
	}
	for _, foreign := range []string{
		"[Unit]\nDescription=mine; not " + Marker + " for stack dev.\n",
		"# my unit\n# copied from one " + Marker + "\n[Service]\nExecStart=/bin/true\n",
		"[Unit]\n\n\n# " + Marker + " for stack dev.\n",
	} {
		path := filepath.Join(t.TempDir(), UnitName("dev"))
		os.WriteFile(path, []byte(foreign), 0o644)
		if err := Remove(path, "dev"); err == nil {
			t.Errorf("removed a user's unit:\n%s", foreign)
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("the user's unit is gone: %v", err)
		}
	}
}

// An environment value reaches the unit quoted: a newline in LOAMS_SECRETS
// cannot add a line (a second ExecStartPre=, say), and systemd reads the
// value back as it was given.
func TestSystemdEnvironmentCannotAddLines(t *testing.T) {
	s := service(t)
	s.Env["LOAMS_SECRETS"] = "file\nExecStartPre=/bin/sh -c 'touch /tmp/pwned'\r\x1b"
	p, _ := For("linux")
	unit := string(p.Render(s))
	for _, line := range strings.Split(unit, "\n") {
		if strings.HasPrefix(line, "ExecStartPre") || strings.ContainsAny(line, "\r\x1b") {
			t.Fatalf("the value added or broke a line: %q\n%s", line, unit)
		}
	}
	if !strings.Contains(unit, `Environment="LOAMS_SECRETS=file\nExecStartPre=/bin/sh -c 'touch /tmp/pwned'\x0d\x1b"`) {
		t.Errorf("not C-escaped inside its quotes:\n%s", unit)
	}
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		return
	}
	path := filepath.Join(t.TempDir(), UnitName(s.Stack))
	os.WriteFile(path, []byte(unit), 0o644)
	if out, err := exec.Command("systemd-analyze", "verify", "--man=no", path).CombinedOutput(); err != nil || strings.Contains(string(out), UnitName(s.Stack)) {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
