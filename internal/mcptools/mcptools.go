// Package mcptools names the tools of `loams mcp serve` and its access
// modes (spec mcp.md, "Access modes"), for the server that enforces a mode
// and for `loams mcp install`/`mcp doctor`, which write and read it in an
// agent's entry. It imports nothing of loams but errs, so both can use it.
package mcptools

import (
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
)

// Names are the eight tools, in the order tools/list gives them.
var Names = []string{"search_docs", "get_sdk_snippet", "loams_info", "stack_status",
	"stack_create", "stack_start", "env_export", "add_package"}

// ReadOnly are the tools that change nothing: --read-only.
var ReadOnly = []string{"search_docs", "get_sdk_snippet", "loams_info", "stack_status"}

// Flags of `loams mcp serve` that set the mode, and the variable for hosts
// whose entries cannot carry arguments.
const (
	FlagReadOnly = "--read-only"
	FlagTools    = "--tools"
	EnvTools     = "LOAMS_MCP_TOOLS"
)

// Parse turns --tools a,b (spaces allowed, duplicates dropped) into the
// tools in Names order. An unknown name is a usage error listing the eight.
func Parse(list string) ([]string, error) {
	var want []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(Names, n) {
			return nil, errs.New(errs.Usage, "the tools are: "+strings.Join(Names, ", "),
				"unknown tool %q in --tools", n).With("tool", n).With("tools", Names)
		}
		want = append(want, n)
	}
	if len(want) == 0 {
		return nil, errs.New(errs.Usage, "name at least one of: "+strings.Join(Names, ", "), "--tools is empty")
	}
	var out []string
	for _, n := range Names {
		if slices.Contains(want, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Mode describes a tool set for people: "all tools", "read-only" or the
// list of names.
func Mode(tools []string) string {
	switch {
	case len(tools) == 0 || slices.Equal(tools, Names):
		return "all tools"
	case slices.Equal(tools, ReadOnly):
		return "read-only"
	}
	return strings.Join(tools, ",")
}

// FromArgs reads the mode from a `loams mcp serve` argv (and the entry's
// LOAMS_MCP_TOOLS), as the server will: nil means every tool. A list that
// does not parse is returned as written, for doctor to show.
func FromArgs(args []string, env map[string]string) []string {
	var list string
	readOnly := false
	for i, a := range args {
		switch {
		case a == FlagReadOnly || a == FlagReadOnly+"=true":
			readOnly = true
		case a == FlagTools && i+1 < len(args):
			list = args[i+1]
		case strings.HasPrefix(a, FlagTools+"="):
			list = strings.TrimPrefix(a, FlagTools+"=")
		}
	}
	if list == "" {
		list = env[EnvTools]
	}
	var tools []string
	if list != "" {
		var err error
		if tools, err = Parse(list); err != nil {
			return strings.Split(list, ",")
		}
	}
	if readOnly {
		if tools == nil {
			return slices.Clone(ReadOnly)
		}
		var out []string
		for _, t := range tools {
			if slices.Contains(ReadOnly, t) {
				out = append(out, t)
			}
		}
		return out
	}
	return tools
}
