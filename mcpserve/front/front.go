package front

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound JSON-RPC line. Larger lines are answered with
// an error and skipped; the stream stays usable.
const maxLine = 16 << 20

// Front is the strict JSON-RPC layer between stdin/stdout and the SDK. It
// parses and checks every message itself, answers what is malformed, and
// hands valid requests to the SDK under ids of its own, so every client id
// (a string, an integer beyond 2^53, a duplicate in a batch) is answered
// exactly once and echoed byte for byte. The SDK's stdio transport (v1.8.0)
// exits on a line that is not JSON, drops answers at EOF, rounds large ids
// and swallows a reused one; none of that can reach the client through here.
//
// Requests of the 2026-07-28 revision go to one SDK session and the old
// handshake's to another, so a client that discovers first and then sends
// initialize is not refused as a duplicate.
type Front struct {
	out  io.Writer
	cfg  Config
	log  *slog.Logger
	sess [2]*sdkConn // handshake, stateless

	writeMu sync.Mutex // one writer: lines never interleave

	mu       sync.Mutex
	next     int64            // our next id
	calls    map[int64]*call  // forwarded, not yet answered
	inFlight map[string]int64 // client id identity → our id
	// initialized is set once an initialize went to the handshake session;
	// initResult is its answer's result once it succeeded, which a repeated
	// initialize gets (Copilot CLI retries after ~1.7 s; some tunnels send
	// discover, initialize, initialize) instead of the SDK's "duplicate".
	initialized bool
	initResult  []byte
	eof         bool          // stdin ended
	stopping    bool          // a signal or a closed stdout: accept nothing more
	brokenOut   bool          // stdout is closed; nothing can be written
	done        chan struct{} // closed when every call read has been answered after eof or stop
	doneOnce    sync.Once
	stopped     chan struct{} // closed by Stop
	settled     *sync.Cond    // broadcast whenever a call is answered (finishAfterInitialize waits on it)
}

func (f *Front) answerPrepared(in *inbound) []byte {
	if f.cfg.Prepared == nil {
		return nil
	}
	return f.cfg.Prepared(Request{ID: in.id, Method: in.method, Params: in.params, Stateless: in.stateless})
}

// call is one forwarded request owed an answer.
type call struct {
	in        *inbound
	sess      int
	started   time.Time
	cancelled bool  // notifications/cancelled: no answer is sent
	finishing bool  // its answer is being delivered (finish)
	slot      *slot // where the answer goes
}

// New makes a front that writes answers to out. Connect an SDK server to
// each of Transports, then run Read on the input.
func New(out io.Writer, cfg Config) *Front {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	f := &Front{out: out, cfg: cfg, log: cfg.Log, next: 1, calls: map[int64]*call{}, inFlight: map[string]int64{}, done: make(chan struct{}), stopped: make(chan struct{})}
	f.settled = sync.NewCond(&f.mu)
	for i := range f.sess {
		f.sess[i] = &sdkConn{front: f, index: i, incoming: make(chan jsonrpc.Message), closed: make(chan struct{})}
	}
	return f
}

// Transports are the two SDK sessions' ends: the initialize handshake's,
// then the 2026-07-28 revision's.
func (f *Front) Transports() []mcp.Transport {
	return []mcp.Transport{f.sess[0], f.sess[1]}
}

// Done is closed once the input has ended (or Stop was called) and every
// request read has been answered.
func (f *Front) Done() <-chan struct{} { return f.done }

// Stopped is closed by Stop, which the front calls itself when stdout
// closes.
func (f *Front) Stopped() <-chan struct{} { return f.stopped }

// Read splits the input into lines and dispatches each, until the input
// ends or the front stops. It never stops on bad input.
func (f *Front) Read(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if f.isStopping() {
			return
		}
		if tooLong {
			f.log.Warn("request line too long", "limit_bytes", maxLine)
			f.writeLine(errorLine(nil, errorf(codeInvalidRequest, "request line exceeds 16 MiB")))
		} else if len(bytes.TrimSpace(line)) > 0 {
			f.dispatch(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				f.log.Warn("reading stdin", "error", err)
			}
			f.mu.Lock()
			f.eof = true
			f.mu.Unlock()
			f.checkDone()
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

// dispatch handles one line: a message or a batch of them.
func (f *Front) dispatch(line []byte) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		f.logRejected("", errorf(codeParse, ""))
		f.writeLine(errorLine(nil, errorf(codeParse, "parse error: the line is not valid JSON")))
		return
	}
	if line[0] != '[' {
		f.accept(line, &slot{})
		return
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(line, &raws); err != nil || len(raws) == 0 {
		f.writeLine(errorLine(nil, errorf(codeInvalidRequest, "invalid request: an empty batch")))
		return
	}
	// The batch's answer goes out once every member has one; the extra
	// count keeps it open until all members have been accepted.
	b := &batch{parts: make([][]byte, len(raws)), pending: len(raws) + 1}
	for i, raw := range raws {
		f.accept(raw, &slot{batch: b, index: i})
	}
	b.fill(f, -1, nil)
}

// accept checks one message and either answers it into s at once or
// forwards it to the SDK, which answers it later through Write.
func (f *Front) accept(raw []byte, s *slot) {
	in, rerr := parseMessage(raw)
	if rerr == nil && in.response {
		f.forward(0, &jsonrpcResponse{raw: raw})
		s.deliver(f, nil)
		return
	}
	if rerr == nil && in.id != nil {
		rerr = f.admit(in, s)
		if rerr == nil {
			return
		}
	}
	if rerr != nil {
		f.logRejected(in.method, rerr)
		if in.id == nil && in.method != "" {
			s.deliver(f, nil) // a notification is never answered, even when wrong
			return
		}
		s.deliver(f, errorLine(in.id, rerr)) // id null when it was not valid
		return
	}
	f.notify(in)
	s.deliver(f, nil)
}

// admit registers a request under an id of ours and forwards it. A
// request before any session, or reusing an id in flight, is refused.
func (f *Front) admit(in *inbound, s *slot) *rpcError {
	sess := 0
	if in.stateless {
		sess = 1
	}
	f.mu.Lock()
	if f.stopping {
		f.mu.Unlock()
		return errorf(codeInternal, "loams mcp serve is shutting down")
	}
	if _, busy := f.inFlight[in.key]; busy {
		f.mu.Unlock()
		return errorf(codeInvalidRequest, "invalid request: id %s is already in use by a request in flight", Clip(string(in.id), 100))
	}
	repeat := false
	switch {
	case in.method == "initialize" && !in.stateless && f.initialized:
		repeat = true
	case in.method == "initialize" && !in.stateless:
		f.initialized = true
	case !in.stateless && !f.initialized && in.method != "ping":
		f.mu.Unlock()
		return errorf(codeInvalidParams, "invalid params: no session; send initialize first, or (protocol 2026-07-28) the %s and %s _meta fields", MetaVersion, MetaCapabilities)
	}
	id := f.next
	f.next++
	f.calls[id] = &call{in: in, sess: sess, started: time.Now(), slot: s}
	f.inFlight[in.key] = id
	if repeat {
		f.mu.Unlock()
		go f.answerRepeatedInitialize(id)
		return nil
	}
	if line := f.answerPrepared(in); line != nil {
		f.mu.Unlock()
		go f.finishAfterInitialize(id, line)
		return nil
	}
	f.mu.Unlock()
	ourID, _ := jsonrpc.MakeID(float64(id))
	if !f.forward(sess, &jsonrpc.Request{ID: ourID, Method: in.method, Params: in.params}) {
		// The SDK session has ended: the request still gets its answer.
		f.finish(id, errorLine(in.id, errorf(codeInternal, "loams mcp serve is shutting down")), "rpc_error -32603")
	}
	return nil
}

// notify forwards a notification; notifications/cancelled is translated
// to our id, and the cancelled request will get no answer.
func (f *Front) notify(in *inbound) {
	if in.method != "notifications/cancelled" {
		sess := 0
		if in.stateless {
			sess = 1
		}
		f.forward(sess, &jsonrpc.Request{Method: in.method, Params: in.params})
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason"`
	}
	_ = json.Unmarshal(in.params, &p)
	key, rerr := idKey(p.RequestID)
	f.mu.Lock()
	id, ok := f.inFlight[key]
	var c *call
	if ok && rerr == nil {
		c = f.calls[id]
		c.cancelled = true
	}
	f.mu.Unlock()
	if c == nil {
		f.log.Info("cancel of no request in flight", "request_id", Clip(string(p.RequestID), 100))
		return
	}
	f.log.Info("request cancelled by the client", "method", c.in.method, "tool", c.in.tool, "reason", Clip(p.Reason, 200))
	params, _ := json.Marshal(map[string]any{"requestId": id, "reason": Clip(p.Reason, 200)})
	f.forward(c.sess, &jsonrpc.Request{Method: in.method, Params: params})
	// The answer is owed to no one now; the SDK's will be dropped.
	f.finish(id, nil, "cancelled")
}

// forward hands a message to an SDK session; false when the session has
// closed and will never answer.
func (f *Front) forward(sess int, msg jsonrpc.Message) bool {
	if r, ok := msg.(*jsonrpcResponse); ok {
		decoded, err := jsonrpc.DecodeMessage(r.raw)
		if err != nil {
			return true // an answer we cannot read is nobody's business
		}
		msg = decoded
	}
	s := f.sess[sess]
	select {
	case s.incoming <- msg:
		return true
	case <-s.closed:
		return false
	}
}

// jsonrpcResponse marks a client's answer to a request of the server.
type jsonrpcResponse struct {
	jsonrpc.Message
	raw []byte
}
