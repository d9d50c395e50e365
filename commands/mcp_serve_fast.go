package commands

import (
	"strings"

	"loams.dev/cli/internal/config"
)

// mcpServeFastArgs recognises `loams mcp serve` with at most its own flags
// (--stack, --project-dir, --read-only, --tools) and the two globals `mcp install` writes after
// it (--profile, --endpoint), as agents start it on every session. Those
// runs skip building the command tree (every command, flag and help text),
// which is most of what the CLI does before serving; anything else — a
// global flag, --help, an unknown flag — takes the full parser.
func mcpServeFastArgs(args []string) (*mcpServeOptions, bool) {
	if len(args) < 3 || args[1] != "mcp" || args[2] != "serve" {
		return nil, false
	}
	opts := &mcpServeOptions{}
	rest := args[3:]
	for len(rest) > 0 {
		name, value, hasValue := strings.Cut(strings.TrimLeft(rest[0], "-"), "=")
		if !strings.HasPrefix(rest[0], "-") || rest[0] == "-" || rest[0] == "--" {
			return nil, false
		}
		if name == "read-only" {
			if hasValue { // --read-only=false and the like: the parser's rules
				return nil, false
			}
			opts.readOnly, rest = true, rest[1:]
			continue
		}
		if !hasValue {
			if len(rest) < 2 || strings.HasPrefix(rest[1], "-") {
				return nil, false // let the parser report the missing value
			}
			value, rest = rest[1], rest[1:]
		}
		rest = rest[1:]
		switch name {
		case "stack":
			opts.stack = value
		case "project-dir":
			opts.projectDir = value
		case "tools":
			opts.tools = value
		case "profile":
			opts.profile = value
		case "endpoint":
			opts.endpoint = value
		default:
			return nil, false
		}
	}
	return opts, true
}

// resolveFastGlobals is resolveGlobals for the fast path: --profile, else
// LOAMS_PROFILE, names the profile; --endpoint is taken as given.
func resolveFastGlobals(f *Factory, opts *mcpServeOptions) {
	f.Globals.Profile, f.Globals.ProfileExplicit = config.DefaultProfile, false
	if opts.profile != "" {
		f.Globals.Profile, f.Globals.ProfileExplicit = opts.profile, true
	} else if v := f.Getenv("LOAMS_PROFILE"); v != "" {
		f.Globals.Profile, f.Globals.ProfileExplicit = v, true
	}
	f.Globals.Endpoint = opts.endpoint
}
