package mcpserve

import (
	"context"
	_ "embed"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/secret"
)

//go:embed instructions.md
var instructions string

// Options are what the tools need from the command line and the machine.
// Nothing here is slow to build: the docs index, the keyring and the stack
// directory are touched when a tool first needs them.
type Options struct {
	Home       home.Home
	Getenv     func(string) string
	Profile    config.Profile
	Stack      string // --stack: the stack tools use when none is named
	ProjectDir string // --project-dir
	Cwd        string
	Now        func() time.Time
	Build      buildinfo.Info
	Stderr     io.Writer

	extraTools []tool // test-only tools, set by this package's tests
}

// Server is one `loams mcp serve` process's state.
type Server struct {
	opts Options
	log  *slog.Logger

	docsOnce   sync.Once
	docsBundle *docsindex.Bundle

	secretsOnce sync.Once
	secrets     secret.Store
	secretsErr  error
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
	return &Server{opts: opts, log: log}, closeLog
}

// Tools is the fixed tool list, in the order tools/list returns it.
func (s *Server) Tools() []*mcp.Tool {
	var defs []*mcp.Tool
	for _, t := range s.tools() {
		defs = append(defs, t.def)
	}
	return defs
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
	return append(list, s.opts.extraTools...)
}

func (s *Server) mcpServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "loams", Title: "Loams", Version: s.opts.Build.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       s.log,
		// Only tools, and no listChanged: the list is fixed for the life of
		// the process. Empty resources and prompts lists are still answered.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
	})
	s.addDocsResources(srv)
	for _, t := range s.tools() {
		srv.AddTool(t.def, t.handle)
	}
	return srv
}

// Serve speaks MCP on in/out until in ends (every request read is answered
// first) or ctx is cancelled. Either is a clean exit.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	s.log.Info("mcp serve start", "version", s.opts.Build.Version, "home", s.opts.Home.Dir)
	err := s.mcpServer().Run(ctx, &lineTransport{in: in, out: out, log: s.log})
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, context.Canceled), errors.Is(err, mcp.ErrConnectionClosed):
		s.log.Info("mcp serve end")
		return nil
	}
	s.log.Error("mcp serve failed", "error", err)
	return err
}

// docs is the embedded bundle (or --docs-dir/LOAMS_DOCS_DIR); its index
// is built on the first search, not here.
func (s *Server) docs() *docsindex.Bundle {
	s.docsOnce.Do(func() { s.docsBundle = docsindex.ForCLI(s.opts.Getenv("LOAMS_DOCS_DIR"), s.opts.Build.Version) })
	return s.docsBundle
}

// secretStore opens the store of stack keys on first use; the keyring
// probe (up to 3 s when the Secret Service is frozen) never delays start.
func (s *Server) secretStore(ctx context.Context) (secret.Store, error) {
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
