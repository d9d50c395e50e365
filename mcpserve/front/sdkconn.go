package front

import (
	"context"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkConn is one SDK session's side of the front: the SDK reads the
// requests the front forwards and writes its answers back through it.
type sdkConn struct {
	front    *Front
	index    int
	incoming chan jsonrpc.Message
	closed   chan struct{}
	once     sync.Once
}

func (s *sdkConn) Connect(context.Context) (mcp.Connection, error) { return s, nil }

func (s *sdkConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-s.incoming:
		return msg, nil
	case <-s.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *sdkConn) Write(_ context.Context, msg jsonrpc.Message) error { return s.front.fromSDK(msg) }

func (s *sdkConn) Close() error {
	s.once.Do(func() { close(s.closed) })
	return nil
}

func (s *sdkConn) SessionID() string { return "" }
