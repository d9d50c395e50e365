package front

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"loams.dev/cli/internal/redact"
)

// fromSDK is every message the SDK writes. An answer goes out under the
// client's own id, checked and redacted; answers nobody is owed any more
// (cancelled, or given up at shutdown) are dropped.
func (f *Front) fromSDK(msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return err
		}
		return f.writeLine(redact.Bytes(unescapeHTML(data)))
	}
	n, _ := resp.ID.Raw().(int64)
	f.mu.Lock()
	c := f.calls[n]
	f.mu.Unlock()
	if c == nil {
		return nil
	}
	if c.cancelled {
		f.finish(n, nil, "cancelled")
		return nil
	}
	line, outcome := render(c, resp)
	if c.in.method == "initialize" && c.sess == 0 {
		f.keepInitialize(resp, line)
	}
	f.finish(n, line, outcome)
	return nil
}

// keepInitialize records the handshake's answer for a repeated
// initialize; after a failed one the next initialize is the SDK's again.
func (f *Front) keepInitialize(resp *jsonrpc.Response, line []byte) {
	var m struct {
		Result json.RawMessage `json:"result"`
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if resp.Error != nil || json.Unmarshal(line, &m) != nil || len(m.Result) == 0 {
		f.initialized = false
		return
	}
	f.initResult = m.Result
}

// answerRepeatedInitialize answers call id, a second initialize on this
// connection, with the first one's result once it has one. Should the
// first have failed, this one goes to the SDK as the first.
func (f *Front) answerRepeatedInitialize(id int64) {
	f.mu.Lock()
	for f.initResult == nil && f.initialized && f.calls[id] != nil {
		f.settled.Wait()
	}
	c := f.calls[id]
	result := f.initResult
	if c != nil && result == nil {
		f.initialized = true
	}
	f.mu.Unlock()
	switch {
	case c == nil: // answered meanwhile (abandoned at shutdown)
	case result != nil:
		f.finish(id, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":%s}`, c.in.id, result), "ok (repeated initialize)")
	default:
		ourID, _ := jsonrpc.MakeID(float64(id))
		if !f.forward(0, &jsonrpc.Request{ID: ourID, Method: c.in.method, Params: c.in.params}) {
			f.finish(id, errorLine(c.in.id, errorf(codeInternal, "loams mcp serve is shutting down")), "rpc_error -32603")
		}
	}
}

// finish retires call n and delivers its answer (nil: none is sent).
//
// The call stays counted until its answer is delivered: were it removed
// first, another call finishing at the same moment could find nothing in
// flight after EOF and end the server before this answer (or the batch
// it completes) is written.
func (f *Front) finish(n int64, line []byte, outcome string) {
	f.mu.Lock()
	c := f.calls[n]
	if c == nil || c.finishing {
		f.mu.Unlock()
		return
	}
	c.finishing = true
	f.mu.Unlock()
	// Never the arguments: they can hold paths and values the user typed.
	attrs := []any{"method", c.in.method, "tool", c.in.tool, "duration_ms", time.Since(c.started).Milliseconds(), "outcome", outcome}
	if c.in.client != "" || c.in.protocol != "" {
		attrs = append(attrs, "client", c.in.client, "protocol", c.in.protocol) // which host, speaking which revision
	}
	f.log.Info("request", attrs...)
	c.slot.deliver(f, line)
	f.mu.Lock()
	delete(f.calls, n)
	if f.inFlight[c.in.key] == n {
		delete(f.inFlight, c.in.key)
	}
	f.settled.Broadcast()
	f.mu.Unlock()
	f.checkDone()
}

// finishAfterInitialize answers call id with line once no initialize sent
// before it is still unanswered: a client that pipelines initialize and
// tools/list reads the answers in that order. Other calls in flight (a
// stack_start waiting a minute) do not hold it up.
func (f *Front) finishAfterInitialize(id int64, line []byte) {
	f.mu.Lock()
	for f.initializeBefore(id) {
		f.settled.Wait()
	}
	f.mu.Unlock()
	f.finish(id, line, "ok")
}

func (f *Front) initializeBefore(id int64) bool {
	for n, c := range f.calls {
		if n < id && c.in.method == "initialize" {
			return true
		}
	}
	return false
}

// writeLine writes one line to stdout. The first failure (the client
// closed stdout: EPIPE) is logged once and stops the server; later lines
// are not attempted.
func (f *Front) writeLine(data []byte) error {
	f.writeMu.Lock()
	defer f.writeMu.Unlock()
	if f.cfg.SignalsReady != nil {
		<-f.cfg.SignalsReady
	}
	if f.brokenOut {
		return io.ErrClosedPipe
	}
	if _, err := f.out.Write(append(data, '\n')); err != nil {
		f.brokenOut = true
		f.log.Warn("stdout is closed; stopping", "error", err)
		go f.Stop()
		return err
	}
	return nil
}

// Stop makes the front accept nothing more; the server then cancels the
// work in flight and gives it a moment to answer.
func (f *Front) Stop() {
	f.mu.Lock()
	already := f.stopping
	f.stopping = true
	f.mu.Unlock()
	if !already {
		close(f.stopped)
	}
	f.checkDone()
}

// Abandon answers every call still in flight with an error of its own,
// so even a request stuck past the shutdown deadline gets its one answer.
func (f *Front) Abandon() {
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

// CloseSessions ends the SDK's sessions: their Read reports EOF.
func (f *Front) CloseSessions() {
	for _, s := range f.sess {
		_ = s.Close()
	}
}

// logRejected records a message the front answered (or dropped) itself.
func (f *Front) logRejected(method string, e *rpcError) {
	f.log.Info("request", "method", Clip(method, 100), "duration_ms", 0, "outcome", fmt.Sprintf("rpc_error %d", e.code))
}

func (f *Front) isStopping() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stopping
}

// checkDone closes done once stdin ended (or the front stopped) and no
// call is left to answer.
func (f *Front) checkDone() {
	f.mu.Lock()
	finished := (f.eof || f.stopping) && len(f.calls) == 0
	f.mu.Unlock()
	if finished {
		f.doneOnce.Do(func() { close(f.done) })
	}
}
