package mcpserve

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/mcptools"
	"loams.dev/cli/mcpserve/front"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// Options are what the tools need from the command line and the machine.
// Nothing here is slow to build: the docs index, the keyring and the stack
// directory are touched when a tool first needs them.
type Options struct {
	Home    home.Home
	Getenv  func(string) string
	Profile config.Profile
	Stack   string // --stack: the stack tools use when none is named
	// ProfileName is the profile when --profile or LOAMS_PROFILE named it
	// ("" otherwise: a profile the project's loams.toml names is the
	// workspace's to weigh, not the user's word).
	ProfileName string
	Endpoint    string // --endpoint: a remote deployment stack_status and env_export cover (remote.go)
	ProjectDir  string // --project-dir
	Cwd         string
	Now         func() time.Time
	Build       buildinfo.Info
	Stderr      io.Writer
	// SignalsReady, when set, is closed once the process's signal handlers
	// are installed; the first answer waits for it, so a client that has
	// an answer can rely on SIGTERM ending the server cleanly.
	SignalsReady <-chan struct{}
	// Access is which tools the user exposes (--read-only, --tools); the
	// zero value is all eight.
	Access Access
	// Workspace is the CLI's resolver, handed over by `loams mcp serve`:
	// one per process, shared by both faces (nil: opened from the fields
	// above, for tests).
	Workspace *workspace.Workspace

	extraTools []tool // test-only tools, set by this package's tests
	noPrepared bool   // tests: let the SDK answer tools/list, to compare
}

// Server is one `loams mcp serve` process's state.
type Server struct {
	opts Options
	log  *slog.Logger

	// stopping is cancelled on SIGTERM/SIGINT or a closed stdout: every
	// tool call in flight stops its work and answers "interrupted".
	stopping  context.Context
	stopTools context.CancelFunc

	docsOnce   sync.Once
	docsBundle *docsindex.Bundle

	wsOnce sync.Once
	ws     *workspace.Workspace
	svOnce sync.Once
	sv     *stack.Supervisor

	secretsOnce sync.Once
	secrets     secret.Store
	secretsErr  error

	preparedState // tools/list answered from bytes prepared at go generate time
	skillState    // the skill, rendered for the mode on first use
}

// New prepares a server; it does no I/O beyond opening mcp.log.
func New(opts Options) (*Server, func()) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	log, closeLog := newLogger(opts.Stderr, opts.Home.MCPLog())
	stopping, stopTools := context.WithCancel(context.Background())
	return &Server{opts: opts, log: log, stopping: stopping, stopTools: stopTools}, closeLog
}

// Tools is the fixed tool list the access mode exposes, in the order
// tools/list returns it.
func (s *Server) Tools() []*mcp.Tool {
	var defs []*mcp.Tool
	for _, t := range s.enabledTools() {
		defs = append(defs, s.forMode(t.def))
	}
	return defs
}

// enabledTools are the tools the access mode exposes.
func (s *Server) enabledTools() []tool {
	var list []tool
	for _, t := range s.tools() {
		if s.opts.Access.allows(t.def.Name) {
			list = append(list, t)
		}
	}
	return list
}

// tools lists every tool; one line per tool file.
func (s *Server) tools() []tool {
	list := []tool{
		s.searchDocsTool(),
		s.getSDKSnippetTool(),
		s.loamsInfoTool(),
		s.stackStatusTool(),
		s.stackCreateTool(),
		s.stackStartTool(),
		s.envExportTool(),
		s.addPackageTool(),
	}
	for _, t := range list { // hosts that defer tools search these words (Claude Code's ToolSearch) or load the tool up front
		t.def.Meta = mcptools.Meta(t.def.Name)
	}
	return append(list, s.opts.extraTools...)
}

func (s *Server) mcpServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "loams", Title: "Loams", Version: s.opts.Build.Version}, &mcp.ServerOptions{
		Instructions: s.Instructions(),
		// The SDK logs a client's mistakes (a duplicate initialize, ping
		// under 2026-07-28) at error level; they are the client's, and the
		// front logs each request's outcome, so its lines go to mcp.log only.
		Logger: demoted(s.log),
		// Tools and resources (the docs), neither with listChanged: both
		// are fixed for the life of the process.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{},
			// The Skills extension (SEP-2640): skills/list and skills/get
			// are answered by answerSkills, the file is a skill:// resource.
			Extensions: map[string]any{skillsExtension: map[string]any{}}},
		// The lists are fixed per binary: 2026-07-28 clients may cache them
		// for a day. The front drops both fields for older revisions.
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
			c.TTLMs, c.CacheScope = listTTL, "public"
		},
	})
	s.addDocsResources(srv)
	s.addToolsOnDemand(srv)
	srv.AddReceivingMiddleware(s.refuseDisabled)
	return srv
}

// answerDirect is what the front answers without the SDK: a plain
// tools/list from prepared bytes, and the Skills extension's methods,
// which the SDK does not know.
func (s *Server) answerDirect(in front.Request) []byte {
	if line := s.preparedToolsList(in); line != nil {
		return line
	}
	return s.answerSkills(in)
}

// listTTL is how long a 2026-07-28 client may keep the tool list: a day.
const listTTL = int(24 * time.Hour / time.Millisecond)

// shutdownGrace is how long in-flight calls get to answer after a signal;
// with the sessions' close it keeps the exit within the spec's 2 s.
const shutdownGrace = 1200 * time.Millisecond

// stoppable cancels a tool call when the server stops, and logs the
// arguments a call carried that the tool ignored (their names only).
func (s *Server) stoppable(h mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(s.stopping, cancel)()
		res, err := h(ctx, req)
		res = s.resultForMode(res)
		if res != nil && res.Meta[ignoredKey] != nil {
			s.log.Info("ignored arguments", "tool", req.Params.Name, "names", res.Meta[ignoredKey])
		}
		return res, err
	}
}

// Serve speaks MCP on in/out until in ends (every request read is answered
// first), ctx is cancelled (SIGTERM, SIGINT: work in flight is cancelled
// and answered), or stdout closes. Each is a clean exit.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	s.log.Info("mcp serve start", "version", s.opts.Build.Version, "home", s.opts.Home.Dir, "tools", s.opts.Access.mode())
	f := front.New(out, front.Config{Log: s.log, Prepared: s.answerDirect, SignalsReady: s.opts.SignalsReady})
	srv := s.mcpServer()
	var ended sync.WaitGroup
	for _, t := range f.Transports() {
		ss, err := srv.Connect(context.Background(), t, nil)
		if err != nil {
			return err
		}
		ended.Add(1)
		go func() { defer ended.Done(); _ = ss.Wait() }()
	}
	go f.Read(in)
	reason := "end of input"
	select {
	case <-f.Done():
	case <-ctx.Done():
		reason = "signal"
	case <-f.Stopped():
		reason = "stdout closed"
	}
	if reason != "end of input" {
		f.Stop()
		s.stopTools()
		select {
		case <-f.Done():
		case <-time.After(shutdownGrace):
		}
		f.Abandon()
	}
	f.CloseSessions()
	sessionsEnded := make(chan struct{})
	go func() { ended.Wait(); close(sessionsEnded) }()
	select {
	case <-sessionsEnded:
	case <-time.After(300 * time.Millisecond): // a handler that ignores its context is left behind
	}
	s.log.Info("mcp serve end", "reason", reason)
	return nil
}

// docs is the embedded bundle (or --docs-dir/LOAMS_DOCS_DIR); its index
// is built on the first search, not here.
func (s *Server) docs() *docsindex.Bundle {
	s.docsOnce.Do(func() { s.docsBundle = docsindex.ForCLI(s.opts.Getenv("LOAMS_DOCS_DIR"), s.opts.Build.Version) })
	return s.docsBundle
}

// openSecretStore opens the store of stack keys on first use (a server
// with no CLI workspace); the keyring probe (up to 3 s when the Secret
// Service is frozen) never delays start.
func (s *Server) openSecretStore(ctx context.Context) (secret.Store, error) {
	s.secretsOnce.Do(func() {
		mode, err := secret.ResolveMode(s.opts.Profile.Secrets, s.opts.Getenv)
		if err != nil {
			s.secretsErr = err
			return
		}
		s.secrets, s.secretsErr = secret.Open(ctx, mode, s.opts.Home, func(msg string) { s.log.Info(msg) })
	})
	return s.secrets, s.secretsErr
}
