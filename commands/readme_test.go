package commands

import (
	"os"
	"strings"
	"testing"
)

// The README's quick start is exactly two commands, the second the test
// command `go test ./...`, and CI (.ci/run) runs that same command first,
// before any stage installs anything.
func TestReadmeQuickStartIsWhatCIRunsFirst(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, quick, ok := strings.Cut(string(readme), "## Quick start")
	if !ok {
		t.Fatal("README has no Quick start section")
	}
	_, block, _ := strings.Cut(quick, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	if len(cmds) != 2 || cmds[1] != "go test ./..." || !strings.Contains(cmds[0], "loams init") {
		t.Fatalf("quick start commands %q, want [<install> && loams init, go test ./...]", cmds)
	}
	run, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(run), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		if strings.Contains(line, "apt-get") || strings.Contains(line, ".ci/steps") || strings.Contains(line, "npm") {
			t.Fatalf(".ci/run reaches %q before it runs `go test ./...`", line)
		}
		if strings.HasPrefix(line, "stage ") && strings.HasSuffix(line, " go test ./...") {
			if !strings.HasPrefix(string(run), "#!/bin/sh\n") {
				t.Error(".ci/run is not a POSIX sh script")
			}
			return
		}
	}
	t.Fatal(".ci/run never runs `go test ./...`")
}
