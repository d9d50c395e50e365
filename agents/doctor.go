package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/mcptools"
)

// Check is doctor's report on one registered entry.
type Check struct {
	Agent           string   `json:"agent"`
	Scope           string   `json:"scope"`
	Name            string   `json:"name"`
	Config          string   `json:"config"`
	Command         []string `json:"command,omitempty"`
	URL             string   `json:"url,omitempty"`
	Connected       bool     `json:"connected"`
	ProtocolVersion string   `json:"protocol_version,omitempty"`
	ServerVersion   string   `json:"server_version,omitempty"`
	Tools           int      `json:"tools"`
	// Mode is the entry's access mode (all tools, read-only, or a list),
	// from its --read-only/--tools arguments or LOAMS_MCP_TOOLS.
	Mode        string `json:"mode,omitempty"`
	HandshakeMS int64  `json:"handshake_ms"`
	ListMS      int64  `json:"tools_list_ms"`
	// Withheld names the variables the host does not pass to the server
	// (Gemini CLI's credential filter), so a missing token is explained.
	Withheld []string `json:"withheld_env,omitempty"`
	Error    string   `json:"error,omitempty"`
	Fix      string   `json:"fix,omitempty"`
	Warning  string   `json:"warning,omitempty"`
	// Project is the project a project-scope entry belongs to ("" for a
	// user-scope entry): `loams doctor` reports it as project_agents.
	Project string `json:"project,omitempty"`
}

// doctorTimeout bounds one handshake: agents give up sooner than this.
const doctorTimeout = 20 * time.Second

// Doctor finds every loams entry the agents would start (recorded installs
// and the agents' known config files) and starts each exactly as the agent
// would: same argv, same protocol revision, then tools/list.
func Doctor(ctx context.Context, e Env) ([]Check, error) {
	found, err := e.registered()
	if err != nil {
		return nil, err
	}
	out := make([]Check, len(found))
	var wg sync.WaitGroup
	for i, f := range found {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = e.check(ctx, f)
		}()
	}
	wg.Wait()
	return out, nil
}

type registration struct {
	project string // the project a project-scope entry belongs to
	agent   Agent
	scope   string
	name    string
	loc     Location
	stored  map[string]any
	// err: the config file could not be read safely (config_unreadable,
	// path_outside_project): reported, never followed.
	err error
}

// registered lists loams entries in every known config location, plus
// recorded installs whose entry has gone missing.
func (e Env) registered() ([]registration, error) {
	var out []registration
	seen := map[string]bool{}
	for _, a := range hosts {
		for _, scope := range a.ScopeNames() {
			loc, err := e.location(a, scope)
			if err != nil || loc.Path == "" {
				continue // e.g. no project directory
			}
			servers, err := loc.servers()
			var coded *errs.Error
			if errors.As(err, &coded) {
				out = append(out, registration{agent: a, scope: scope, name: "loams", loc: loc, err: coded, project: projectOf(loc)})
				continue
			}
			for _, name := range slices.Sorted(maps.Keys(servers)) {
				if name != "loams" && !strings.HasPrefix(name, "loams-") {
					continue
				}
				seen[a.Name+"/"+scope+"/"+name] = true
				out = append(out, registration{agent: a, scope: scope, name: name, loc: loc, stored: servers[name], project: projectOf(loc)})
			}
		}
	}
	recs, err := loadRecords(e.Loams.MCPInstalls())
	if err != nil {
		return nil, err
	}
	for _, r := range recs.Installs {
		if seen[r.Agent+"/"+r.Scope+"/"+r.Name] || !e.ours(r) {
			continue
		}
		a, _, _ := Lookup(r.Agent, r.Scope)
		out = append(out, registration{agent: a, scope: r.Scope, name: r.Name, loc: Location{Path: r.Path}, project: cmp.Or(r.Project, r.Root)})
	}
	return out, nil
}

// ours reports whether a recorded install is checked from here: a
// project-scope entry belongs to its project, and only doctor run in that
// project looks at it (elsewhere its file is not where that directory's
// agents read, and its fix would write into the wrong project).
func (e Env) ours(r Record) bool {
	project := cmp.Or(r.Project, r.Root)
	return project == "" || e.ProjectDir != "" && sameFile(project, e.ProjectDir)
}

// projectOf is the project a config location belongs to ("" for a user
// scope): the project a file is confined to, or the project a user file
// nests the entry under (Claude Code's local scope).
func projectOf(loc Location) string { return cmp.Or(nestedProject(loc), loc.Root) }

// servers reads every entry of the location's server container.
func (l Location) servers() (map[string]map[string]any, error) {
	b, existed, err := readFile(l.Path, l.Root, l.MaxSize)
	if err != nil || !existed {
		return nil, err
	}
	return l.decode(b)
}

func (e Env) check(ctx context.Context, r registration) Check {
	c := Check{Agent: r.agent.Name, Scope: r.scope, Name: r.name, Config: r.loc.Path, Project: r.project}
	fix := fmt.Sprintf("loams mcp install --agent %s --scope %s", r.agent.Name, r.scope)
	if ce := (*errs.Error)(nil); errors.As(r.err, &ce) {
		c.Error, c.Fix = string(ce.Code)+": "+ce.Message, ce.Hint
		return c
	}
	if r.stored == nil {
		c.Error = "recorded by loams mcp install, but no longer in " + r.loc.Path
		c.Fix = fix
		return c
	}
	argv, url, env := storedCommand(r.stored)
	c.Command, c.URL = argv, url
	var transport mcp.Transport
	var stderr tail
	switch {
	case url != "":
		transport = &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, DisableStandaloneSSE: true}
		fix = "start the stack (`loams stack start`) or run `" + fix + "` to point at its current address"
	case len(argv) > 0:
		c.Mode = mcptools.Mode(mcptools.FromArgs(argv[1:], env))
		environ := e.serverEnv(r.agent, env)
		bin := argv[0]
		if filepath.IsAbs(bin) {
			if _, err := os.Stat(bin); err != nil {
				c.Error = fmt.Sprintf("%s does not exist (loams was moved or uninstalled)", bin)
				c.Fix = fix
				return c
			}
		} else if bin = lookPath(bin, pathOf(environ)); bin == "" {
			// exec.Command would search doctor's own PATH; the host
			// searches the one it gives the server.
			c.Warning = fmt.Sprintf("%s is not on the PATH %s starts servers with (%s)", argv[0], r.agent.Title, pathOf(environ))
			c.Error = c.Warning
			c.Fix = "put loams on that PATH, or write its absolute path: " + fix + " --absolute-path"
			return c
		}
		if r.name == "loams" && e.Executable != "" && !sameFile(bin, e.Executable) {
			c.Warning = "runs " + bin + ", not this loams (" + e.Executable + ")"
		}
		cmd := exec.Command(bin, argv[1:]...)
		cmd.Dir = e.ProjectDir
		cmd.Env = environ
		if c.Withheld = e.withheld(r.agent, env); len(c.Withheld) > 0 && c.Warning == "" {
			c.Warning = fmt.Sprintf("%s does not pass %s to its servers: name them in the entry's env if loams needs them (private registry tokens, custom CAs)",
				r.agent.Title, strings.Join(c.Withheld, ", "))
		}
		cmd.Stderr = &stderr
		transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	default:
		c.Error = "the entry has neither a command nor a url"
		c.Fix = fix
		return c
	}
	ctx, cancel := context.WithTimeout(ctx, doctorTimeout)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "loams-doctor", Version: "1"}, nil)
	start := time.Now()
	session, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: r.agent.Protocol})
	if err != nil {
		c.Error = "handshake failed: " + err.Error()
		if s := stderr.String(); s != "" {
			c.Error += "; stderr: " + s
		}
		c.Fix = fix
		return c
	}
	defer session.Close()
	c.HandshakeMS = time.Since(start).Milliseconds()
	listStart := time.Now()
	if ir := session.InitializeResult(); ir != nil {
		c.ProtocolVersion = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			c.ServerVersion = ir.ServerInfo.Version
		}
	}
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		c.Error = "tools/list failed: " + err.Error()
		c.Fix = fix
		return c
	}
	c.ListMS = time.Since(listStart).Milliseconds()
	c.Connected, c.Tools = true, len(tools.Tools)
	return c
}

// pathOf is the PATH in an environment list (the last one wins, as in exec).
func pathOf(env []string) string {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	return path
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return os.SameFile(fa, fb)
}

// tail keeps the last KiB of a server's stderr for the report.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 1024 {
		t.buf = t.buf[len(t.buf)-1024:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(t.buf), ""))
}

// serverEnv is the environment the host gives a server it starts: its own
// (minus what it withholds), the project variable it sets, then the
// entry's env, which hosts pass as written.
func (e Env) serverEnv(a Agent, entryEnv map[string]string) []string {
	var env []string
	for _, kv := range e.childEnv() {
		k, _, _ := strings.Cut(kv, "=")
		if a.DropEnv != nil && a.DropEnv(k) {
			continue
		}
		env = append(env, kv)
	}
	if a.ProjectEnv != "" && e.ProjectDir != "" {
		env = append(env, a.ProjectEnv+"="+e.ProjectDir)
	}
	for _, k := range slices.Sorted(maps.Keys(entryEnv)) {
		env = append(env, k+"="+entryEnv[k])
	}
	return env
}

// withheld lists the inherited variables host a drops (names only).
func (e Env) withheld(a Agent, entryEnv map[string]string) []string {
	var out []string
	if a.DropEnv == nil {
		return nil
	}
	for _, kv := range e.childEnv() {
		k, _, _ := strings.Cut(kv, "=")
		if _, set := entryEnv[k]; a.DropEnv(k) && !set {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
