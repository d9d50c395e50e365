package mcpserve

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/mcptools"
	"loams.dev/cli/mcpserve/front"
)

// toolNames are the eight tools, in the order (*Server).tools builds them;
// known without building any (the access check runs before the first call).
// The one list lives in internal/mcptools, which mcp install reads too.
var toolNames = mcptools.Names

// readOnlyTools change nothing: the --read-only set.
var readOnlyTools = mcptools.ReadOnly

// Access is which tools a server exposes. The zero value exposes all.
// The user sets it (`mcp serve --read-only`, `--tools`, LOAMS_MCP_TOOLS),
// never the agent: the server enforces it, whatever the model asks.
type Access struct {
	Mode  string   // "all", "read-only" or "tools"
	Tools []string // the tools exposed; nil with mode "all"
}

// ToolNames lists the eight tools, for usage errors and completions.
func ToolNames() []string { return slices.Clone(toolNames) }

// ParseAccess turns the flags into an Access: --read-only, or --tools
// with a comma-separated list of names (each one of the eight). Only an
// absent list ("") means all tools: a blank one (" ", ",") names none and
// is a usage error, never a quiet way to expose all eight.
func ParseAccess(readOnly bool, tools string) (Access, error) {
	switch {
	case readOnly && tools != "":
		return Access{}, errs.New(errs.Usage, "pass either --read-only or --tools NAME,…",
			"--read-only and --tools both choose the tools; pass one")
	case readOnly:
		return Access{Mode: "read-only", Tools: slices.Clone(readOnlyTools)}, nil
	case tools == "":
		return Access{Mode: "all"}, nil
	}
	var list []string
	for name := range strings.SplitSeq(tools, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(toolNames, name) {
			return Access{}, errs.New(errs.Usage, "name tools from: "+strings.Join(toolNames, ", "),
				"--tools: %q is not a loams tool", front.Clip(name, 100)).With("tools", toolNames)
		}
		if !slices.Contains(list, name) {
			list = append(list, name)
		}
	}
	if len(list) == 0 {
		return Access{}, errs.New(errs.Usage, "name tools from: "+strings.Join(toolNames, ", "), "--tools names no tool")
	}
	return Access{Mode: "tools", Tools: list}, nil
}

// AccessFromEnv reads LOAMS_MCP_TOOLS, for hosts whose entries cannot
// carry arguments: "read-only" or a list as --tools takes it.
func AccessFromEnv(value string) (Access, error) {
	if strings.TrimSpace(value) == "read-only" {
		return ParseAccess(true, "")
	}
	a, err := ParseAccess(false, value)
	if e := (*errs.Error)(nil); errors.As(err, &e) {
		e.Message = "LOAMS_MCP_TOOLS" + strings.TrimPrefix(e.Message, "--tools")
	}
	return a, err
}

// allows reports whether the tool is exposed.
func (a Access) allows(name string) bool {
	return a.Tools == nil || slices.Contains(a.Tools, name)
}

// mode is how loams_info and the log name it.
func (a Access) mode() string {
	if a.Mode == "" {
		return "all"
	}
	return a.Mode
}

// disabled is the answer to a call of a tool the mode leaves out: only the
// user can widen the mode, in the agent's entry. It changes nothing.
func (a Access) disabled(name string) *mcp.CallToolResult {
	tools := strings.Join(append(slices.Clone(a.Tools), name), ",")
	// Only agents see this error, so one hint serves both faces.
	hint := errs.AskUser("loams mcp install --agent AGENT --tools "+tools) + " if they want you to use " + name
	return failure(errs.New(errs.ToolDisabled, hint, "%s is not enabled in this server (mode %s)", name, a.mode()).
		With("enabled_tools", a.Tools))
}

// refuseDisabled answers a tools/call of a tool outside the mode before the
// SDK sees it (the tool is not registered, so the SDK would call it unknown).
func (s *Server) refuseDisabled(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/call" {
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && slices.Contains(toolNames, r.Params.Name) && !s.opts.Access.allows(r.Params.Name) {
				s.log.Info("tool disabled", "tool", r.Params.Name, "mode", s.opts.Access.mode())
				return s.opts.Access.disabled(r.Params.Name), nil
			}
		}
		return next(ctx, method, req)
	}
}
