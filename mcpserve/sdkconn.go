package mcpserve

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
	front    *front
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

// writeLine writes one line to stdout. The first failure (the client
// closed stdout: EPIPE) is logged once and stops the server; later lines
// are not attempted.
func (f *front) writeLine(data []byte) error {
	f.writeMu.Lock()
	defer f.writeMu.Unlock()
	if f.signalsReady != nil {
		<-f.signalsReady
	}
	if f.brokenOut {
		return io.ErrClosedPipe
	}
	if _, err := f.out.Write(append(data, '\n')); err != nil {
		f.brokenOut = true
		f.log.Warn("stdout is closed; stopping", "error", err)
		go f.stop()
		return err
	}
	return nil
}

// stop makes the front accept nothing more; Serve then cancels the work
// in flight and gives it a moment to answer.
func (f *front) stop() {
	f.mu.Lock()
	already := f.stopping
	f.stopping = true
	f.mu.Unlock()
	if !already {
		close(f.stopped)
	}
	f.checkDone()
}

// abandon answers every call still in flight with an error of its own,
// so even a request stuck past the shutdown deadline gets its one answer.
func (f *front) abandon() {
	f.mu.Lock()
	var left []int64
	for n, c := range f.calls {
		if !c.cancelled {
			left = append(left, n)
		}
	}
	f.mu.Unlock()
	for _, n := range left {
		f.mu.Lock()
		c := f.calls[n]
		f.mu.Unlock()
		if c != nil {
			f.finish(n, errorLine(c.in.id, errorf(codeInternal, "loams mcp serve stopped before this request finished")), "abandoned")
		}
	}
}

// closeSessions ends the SDK's sessions: their Read reports EOF.
func (f *front) closeSessions() {
	for _, s := range f.sess {
		_ = s.Close()
	}
}
