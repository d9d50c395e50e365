package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/errs"
)

// resourcePageSize is how many docs pages one resources/list answer holds:
// all of them while the bundle is this small (about a hundred), since
// Qwen Code and Crush read only the first page. A cursor still works.
const resourcePageSize = 500

// docsTemplate names every guide and snippet, and with #anchor a section.
var docsTemplate = &mcp.ResourceTemplate{
	URITemplate: docsindex.URIPrefix + "{path}",
	Name:        "loams-docs",
	Title:       "Loams docs",
	Description: "A Loams guide or snippet by path (guides/engines/qdrant.md, snippets/qdrant/python/connect.py); " +
		"append #anchor for one section, as search_docs results name them.",
	MIMEType: "text/markdown",
}

// addDocsResources serves the docs bundle as MCP resources. resources/list
// and resources/read are answered here, from the bundle, instead of
// registering a hundred resources with the SDK at every start: nothing is
// read until a client asks, and a read accepts what the SDK's template
// matcher would refuse: nested paths, %2F-escaped ones and #anchors.
func (s *Server) addDocsResources(srv *mcp.Server) {
	tmpl := *docsTemplate
	tmpl.Description = s.words().Text(tmpl.Description) // it names search_docs
	srv.AddResourceTemplate(&tmpl, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return s.readDocsResource(req.Params.URI)
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch r := req.(type) {
			case *mcp.ListResourcesRequest:
				return s.listDocsResources(r.Params)
			case *mcp.ReadResourceRequest:
				if r.Params.URI == SkillURI {
					return s.readSkillResource(), nil
				}
				if strings.HasPrefix(r.Params.URI, docsindex.URIPrefix) {
					return s.readDocsResource(r.Params.URI)
				}
			}
			return next(ctx, method, req)
		}
	})
}

// listDocsResources answers one page of the list; the cursor is the
// offset of the next page.
func (s *Server) listDocsResources(p *mcp.ListResourcesParams) (*mcp.ListResourcesResult, error) {
	pages, err := s.docs().Pages()
	if err != nil {
		return nil, err
	}
	from := 0
	if p != nil && p.Cursor != "" {
		n, err := strconv.Atoi(p.Cursor)
		if err != nil || n < 0 || n > len(pages) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: unknown cursor; list again without one"}
		}
		from = n
	}
	to := min(from+resourcePageSize, len(pages))
	res := &mcp.ListResourcesResult{Resources: make([]*mcp.Resource, 0, to-from)}
	res.TTLMs, res.CacheScope = listTTL, "public"
	if from == 0 {
		res.Resources = append(res.Resources, s.skillResource())
	}
	for _, pg := range pages[from:to] {
		res.Resources = append(res.Resources, &mcp.Resource{URI: pg.URI, Name: pg.Path, Title: pg.Title, MIMEType: pg.MIMEType, Size: int64(pg.Size)})
	}
	if to < len(pages) {
		res.NextCursor = strconv.Itoa(to)
	}
	return res, nil
}

// readSkillResource is the skill's SKILL.md, as skills/list describes it.
func (s *Server) readSkillResource() *mcp.ReadResourceResult {
	res := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: SkillURI, MIMEType: "text/markdown", Text: string(s.Skill())}}}
	res.TTLMs, res.CacheScope = listTTL, "public"
	return res
}

// readDocsResource returns a whole page, or one section for #anchor.
func (s *Server) readDocsResource(uri string) (*mcp.ReadResourceResult, error) {
	ref := uri
	if unescaped, err := url.PathUnescape(uri); err == nil {
		ref = unescaped // a host that filled {path} escaped its slashes
	}
	doc, err := s.docs().Read(ref)
	if errors.Is(err, fs.ErrNotExist) {
		if len(uri) > 200 {
			uri = uri[:200]
		}
		// CodeInvalidParams is what go-sdk v1.8 answers for a missing resource.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "resource not found: " + err.Error(),
			Data: mustMarshal(map[string]string{"uri": uri, "hint": errs.As(err).HintFor(true)})}
	}
	if err != nil {
		return nil, err
	}
	res := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: doc.URI, MIMEType: doc.MIMEType, Text: doc.Text}}}
	res.TTLMs, res.CacheScope = listTTL, "public"
	return res, nil
}

func mustMarshal(v any) json.RawMessage {
	data, _ := json.Marshal(v)
	return data
}
