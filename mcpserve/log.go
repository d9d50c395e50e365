package mcpserve

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"loams.dev/cli/internal/inert"
	"loams.dev/cli/internal/redact"
)

// logRotateAt is the size at which mcp.log is moved to mcp.log.1 when a
// server starts; one old file is kept.
const logRotateAt = 8 << 20

// newLogger logs at warn to stderr and at info to mcp.log; never to stdout.
// A log file that cannot be opened costs the file log, not the server.
func newLogger(stderr io.Writer, path string) (*slog.Logger, func()) {
	handlers := []slog.Handler{slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})}
	closeFn := func() {}
	if path != "" {
		if f, err := openLog(path); err == nil {
			handlers = append(handlers, slog.NewJSONHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: utcTime}))
			closeFn = func() { _ = f.Close() }
		} else {
			slog.New(handlers[0]).Warn("mcp.log unavailable; logging to stderr only", "error", err)
		}
	}
	return slog.New(fanout(handlers)), closeFn
}

// utcTime writes the log's times in UTC: the same on every machine, and
// formatting them never loads /etc/localtime on the way to the first answer.
func utcTime(groups []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey && len(groups) == 0 {
		a.Value = slog.TimeValue(a.Value.Time().UTC())
	}
	return a
}

func openLog(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > logRotateAt {
		_ = os.Rename(path, path+".1")
	}
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}

// fanout sends each record to every handler that wants its level.
type fanout []slog.Handler

func (h fanout) Enabled(ctx context.Context, l slog.Level) bool {
	for _, x := range h {
		if x.Enabled(ctx, l) {
			return true
		}
	}
	return false
}

// Handle writes r, with every known secret redacted and every control
// character escaped (a log line quotes what clients and servers sent, and
// someone will `tail -f` it on a terminal: internal/inert), to each handler.
func (h fanout) Handle(ctx context.Context, r slog.Record) error {
	clean := slog.NewRecord(r.Time, r.Level, inert.String(redact.String(r.Message)), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if a.Value.Kind() == slog.KindString {
			a.Value = slog.StringValue(inert.String(redact.String(a.Value.String())))
		} else if err, ok := a.Value.Any().(error); ok && a.Value.Kind() == slog.KindAny {
			a.Value = slog.StringValue(inert.String(redact.String(err.Error())))
		}
		clean.AddAttrs(a)
		return true
	})
	for _, x := range h {
		if x.Enabled(ctx, clean.Level) {
			_ = x.Handle(ctx, clean.Clone())
		}
	}
	return nil
}

// demoted logs every record at info at most: for the SDK's own lines.
func demoted(l *slog.Logger) *slog.Logger { return slog.New(demote{l.Handler()}) }

type demote struct{ slog.Handler }

// Enabled drops the SDK's own info lines ("server connecting", "session
// connected", two sessions each way): the front logs every start, request
// and end already, and each line is a write on the way to the first answer.
func (d demote) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && d.Handler.Enabled(ctx, slog.LevelInfo)
}

func (d demote) Handle(ctx context.Context, r slog.Record) error {
	r.Level = min(r.Level, slog.LevelInfo)
	return d.Handler.Handle(ctx, r)
}

func (d demote) WithAttrs(attrs []slog.Attr) slog.Handler { return demote{d.Handler.WithAttrs(attrs)} }
func (d demote) WithGroup(name string) slog.Handler       { return demote{d.Handler.WithGroup(name)} }

func (h fanout) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make(fanout, len(h))
	for i, x := range h {
		out[i] = x.WithAttrs(attrs)
	}
	return out
}

func (h fanout) WithGroup(name string) slog.Handler {
	out := make(fanout, len(h))
	for i, x := range h {
		out[i] = x.WithGroup(name)
	}
	return out
}
