package commands

import (
	"slices"
	"testing"

	"loams.dev/cli/internal/iostreams"
)

func TestMCPServeFastArgs(t *testing.T) {
	t.Parallel()
	fast := []struct {
		args                        []string
		stack, dir, profile, endpnt string
	}{
		{[]string{"loams", "mcp", "serve"}, "", "", "", ""},
		{[]string{"loams", "mcp", "serve", "--stack", "dev"}, "dev", "", "", ""},
		{[]string{"loams", "mcp", "serve", "--stack=dev", "-project-dir", "/p"}, "dev", "/p", "", ""},
		{[]string{"loams", "mcp", "serve", "--project-dir=/a b"}, "", "/a b", "", ""},
		// what `loams --profile staging --endpoint URL mcp install` writes
		{[]string{"loams", "mcp", "serve", "--profile", "staging", "--endpoint", "https://l.example"}, "", "", "staging", "https://l.example"},
	}
	for _, tt := range fast {
		opts, ok := mcpServeFastArgs(tt.args)
		if !ok || opts.stack != tt.stack || opts.projectDir != tt.dir || opts.profile != tt.profile || opts.endpoint != tt.endpnt {
			t.Errorf("%q: fast=%v %+v", tt.args, ok, opts)
		}
	}
	for _, tt := range []struct {
		args     []string
		readOnly bool
		tools    string
	}{
		{[]string{"loams", "mcp", "serve", "--read-only"}, true, ""},
		{[]string{"loams", "mcp", "serve", "--read-only", "--stack", "dev"}, true, ""},
		{[]string{"loams", "mcp", "serve", "--tools", "search_docs,env_export"}, false, "search_docs,env_export"},
		{[]string{"loams", "mcp", "serve", "--tools=stack_status"}, false, "stack_status"},
	} {
		opts, ok := mcpServeFastArgs(tt.args)
		if !ok || opts.readOnly != tt.readOnly || opts.tools != tt.tools {
			t.Errorf("%q: fast=%v %+v", tt.args, ok, opts)
		}
	}
	for _, args := range [][]string{
		{"loams", "mcp", "serve", "--help"},
		{"loams", "mcp", "serve", "-h"},
		{"loams", "--profile", "work", "mcp", "serve"},
		{"loams", "mcp", "serve", "--stack"},
		{"loams", "mcp", "serve", "--stack", "--project-dir", "x"},
		{"loams", "mcp", "serve", "extra"},
		{"loams", "mcp", "serve", "--bogus", "1"},
		{"loams", "mcp", "serve", "--output", "json"},
		{"loams", "mcp", "serve", "--read-only=false"},
		{"loams", "mcp", "serve", "--tools"},
		{"loams", "mcp", "tools"},
		{"loams"},
	} {
		if _, ok := mcpServeFastArgs(args); ok {
			t.Errorf("%q: took the fast path", args)
		}
	}
}

// The fast path knows every flag of mcp serve: one added to the command
// must be taught to mcpServeFastArgs too, or it would be rejected there.
func TestMCPServeFastArgsKnowsEveryFlag(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := iostreams.Test()
	root := NewRoot(&Factory{IO: ios, Getenv: func(string) string { return "" }})
	serve := root.Command("mcp").Command("serve")
	var names []string
	for _, fl := range serve.Flags {
		names = append(names, fl.Names()...)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"project-dir", "read-only", "stack", "tools"}) {
		t.Errorf("mcp serve takes %v; teach mcpServeFastArgs the new ones", names)
	}
}
