package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound JSON-RPC line. Larger lines are answered with
// an error and skipped; the stream stays usable.
const maxLine = 16 << 20

// lineTransport is our own newline framing under the SDK's server. The
// SDK's stdio transport (v1.8.0) exits on a line that is not JSON and drops
// the answers to requests it has read when stdin closes; this one answers
// -32700 and carries on, and at EOF it holds the session open until every
// request read has been answered.
type lineTransport struct {
	in  io.Reader
	out io.Writer
	log *slog.Logger
}

func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{
		out:      t.out,
		log:      t.log,
		incoming: make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
		eof:      make(chan struct{}),
		pending:  map[jsonrpc.ID]*batch{},
	}
	c.idle = sync.NewCond(&c.mu)
	go c.readLoop(t.in)
	return c, nil
}

// batch collects the responses to one inbound JSON-RPC batch, which go out
// together as one array once the last of them is written.
type batch struct {
	order     []jsonrpc.ID
	responses map[jsonrpc.ID]*jsonrpc.Response
}

type lineConn struct {
	out      io.Writer
	log      *slog.Logger
	incoming chan jsonrpc.Message
	closed   chan struct{}
	eof      chan struct{} // closed when the reader has seen the end of input

	writeMu sync.Mutex // one writer: lines never interleave

	mu       sync.Mutex
	idle     *sync.Cond            // signalled when a pending request is answered
	pending  map[jsonrpc.ID]*batch // requests read and not yet answered (nil batch: single)
	isClosed bool
	closeErr error
	once     sync.Once
}

func (c *lineConn) SessionID() string { return "" }

// readLoop splits the input into lines and hands each message to Read. It
// never stops on bad input: only the end of the stream ends it.
func (c *lineConn) readLoop(in io.Reader) {
	defer close(c.eof)
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			c.log.Warn("request line too long", "limit_bytes", maxLine)
			c.writeError(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "request line exceeds 16 MiB")
		} else if len(bytes.TrimSpace(line)) > 0 {
			c.dispatch(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.log.Warn("reading stdin", "error", err)
			}
			return
		}
	}
}

// readLine returns one line without its newline. A line over maxLine is
// consumed to its end and reported as tooLong instead of being buffered.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > maxLine {
			tooLong = true
			buf = nil
		} else if !tooLong {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), tooLong, err
	}
}

// dispatch decodes one line (a message or a batch) and queues its messages.
func (c *lineConn) dispatch(line []byte) {
	if !json.Valid(line) {
		c.writeError(jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
		return
	}
	trimmed := bytes.TrimSpace(line)
	if trimmed[0] != '[' {
		if msg, ok := c.decode(trimmed); ok {
			c.track(msg, nil)
			c.deliver(msg)
		}
		return
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(trimmed, &raws); err != nil || len(raws) == 0 {
		c.writeError(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: an empty batch")
		return
	}
	var msgs []jsonrpc.Message
	b := &batch{responses: map[jsonrpc.ID]*jsonrpc.Response{}}
	for _, raw := range raws {
		if msg, ok := c.decode(raw); ok {
			msgs = append(msgs, msg)
			if req, isReq := msg.(*jsonrpc.Request); isReq && req.IsCall() {
				b.order = append(b.order, req.ID)
			}
		}
	}
	for _, msg := range msgs {
		c.track(msg, b)
	}
	for _, msg := range msgs {
		c.deliver(msg)
	}
}

// decode turns raw JSON into a request; anything else gets -32600.
func (c *lineConn) decode(raw []byte) (jsonrpc.Message, bool) {
	msg, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		var probe struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(raw, &probe)
		id, _ := jsonrpc.MakeID(normalizeID(probe.ID))
		c.writeError(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil, false
	}
	return msg, true
}

func normalizeID(v any) any {
	switch v.(type) {
	case string, float64:
		return v
	}
	return nil
}

// track records a request that is owed an answer.
func (c *lineConn) track(msg jsonrpc.Message, b *batch) {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.pending[req.ID] = b
		c.mu.Unlock()
	}
}

func (c *lineConn) deliver(msg jsonrpc.Message) {
	select {
	case c.incoming <- msg:
	case <-c.closed:
	}
}

// Read hands the next message to the SDK. At the end of input it waits
// until every request read so far has been answered, then reports EOF.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.incoming:
		return msg, nil
	case <-c.eof:
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	// The reader may have queued a last message just before closing eof.
	select {
	case msg := <-c.incoming:
		return msg, nil
	default:
	}
	c.drain(ctx)
	return nil, io.EOF
}

// drain blocks until no request is pending or the connection closes.
func (c *lineConn) drain(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		c.mu.Lock()
		for len(c.pending) > 0 && !c.isClosed {
			c.idle.Wait()
		}
		c.mu.Unlock()
		close(done)
	}()
	select {
	case <-done:
	case <-c.closed:
	case <-ctx.Done():
	}
}

// Write sends one message; answers to a batch are held until the batch is
// complete and then sent as one array.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	if !isResp {
		return c.writeMessage(msg)
	}
	c.mu.Lock()
	b, owed := c.pending[resp.ID]
	var complete []*jsonrpc.Response
	if owed && b != nil {
		b.responses[resp.ID] = resp
		if len(b.responses) == len(b.order) {
			for _, id := range b.order {
				complete = append(complete, b.responses[id])
			}
		}
	}
	c.mu.Unlock()

	var err error
	switch {
	case owed && b != nil && complete == nil:
		// more answers of this batch to come
	case complete != nil:
		err = c.writeBatch(complete)
	default:
		err = c.writeMessage(msg)
	}
	c.mu.Lock()
	if owed && b == nil {
		delete(c.pending, resp.ID)
	}
	if complete != nil {
		for _, id := range b.order {
			delete(c.pending, id)
		}
	}
	c.idle.Broadcast()
	c.mu.Unlock()
	return err
}

func (c *lineConn) writeMessage(msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *lineConn) writeBatch(rs []*jsonrpc.Response) error {
	raws := make([]json.RawMessage, 0, len(rs))
	for _, r := range rs {
		data, err := jsonrpc.EncodeMessage(r)
		if err != nil {
			return err
		}
		raws = append(raws, data)
	}
	data, err := json.Marshal(raws)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// writeError answers a line the SDK never sees (bad JSON, a bad request).
// An unknown id is written as null, as JSON-RPC asks.
func (c *lineConn) writeError(id jsonrpc.ID, code int64, message string) {
	idJSON := []byte("null")
	if id.IsValid() {
		idJSON, _ = json.Marshal(id.Raw())
	}
	msgJSON, _ := json.Marshal(message)
	line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, idJSON, code, msgJSON)
	if err := c.writeLine(line); err != nil {
		c.log.Warn("writing error response", "error", err)
	}
}

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

func (c *lineConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		c.mu.Lock()
		c.isClosed = true
		c.idle.Broadcast()
		c.mu.Unlock()
	})
	return c.closeErr
}
