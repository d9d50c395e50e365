package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"

	"loams.dev/cli/internal/errs"
)

// The Connect routes of the server's instance service (server.md).
const (
	GetInstancePath = "/loams.instance.v1.InstanceService/GetInstance"
	WhoAmIPath      = "/loams.instance.v1.InstanceService/WhoAmI"
)

// Instance is GetInstance's answer: what the server is and can do.
type Instance struct {
	InstanceID    string    `json:"instance_id,omitempty"`
	Name          string    `json:"name,omitempty"`
	Edition       string    `json:"edition,omitempty"`
	ServerVersion string    `json:"server_version,omitempty"`
	APIVersions   []string  `json:"api_versions,omitempty"`
	Services      []Service `json:"services"`
	// SignInMethods are what `loams login` may offer (none today).
	SignInMethods []json.RawMessage `json:"sign_in_methods"`
}

// Service is one API package the server offers.
type Service struct {
	Package   string `json:"package"`
	Available bool   `json:"available"`
	Unstable  bool   `json:"unstable"`
}

// ErrNotServed means the server has no such route (an older server, or a
// build without the feature): callers fall back instead of failing.
var ErrNotServed = errors.New("the server does not serve this route")

// GetInstance asks the server what it is. It is a read: retried on
// connection errors and 503. latency is the time of the answered attempt.
func (c *Client) GetInstance(ctx context.Context) (inst *Instance, latency time.Duration, err error) {
	var raw map[string]json.RawMessage
	latency, err = c.rpc(ctx, GetInstancePath, &raw)
	if err != nil {
		return nil, latency, err
	}
	inst = &Instance{}
	if err := json.Unmarshal(snakeKeys(raw), inst); err != nil {
		return nil, latency, errs.New(errs.ServerError, "the server's GetInstance answer does not parse; check that the endpoint is a Loams server",
			"%s: unreadable GetInstance answer: %v", c.base.Redacted(), err).With("endpoint", c.URL())
	}
	if inst.Services == nil {
		inst.Services = []Service{}
	}
	return inst, latency, nil
}

// WhoAmI asks the server who the key belongs to; ErrNotServed when the
// server has no WhoAmI. The answer is passed on as the server gives it.
func (c *Client) WhoAmI(ctx context.Context) (map[string]any, error) {
	var out map[string]any
	_, err := c.rpc(ctx, WhoAmIPath, &out)
	return out, err
}

// Ready is one readiness probe (GET /ready): no retries, the caller polls.
func (c *Client) Ready(ctx context.Context) bool {
	resp, err := c.once(ctx, Call{Method: http.MethodGet, Path: "/ready"})
	return err == nil && resp.Status == http.StatusOK
}

// once is Do without retries.
func (c *Client) once(ctx context.Context, call Call) (*Response, error) {
	resp, err := c.follow(ctx, call)
	if err != nil {
		return nil, c.classify(err)
	}
	return resp, nil
}

// rpc makes a Connect unary call with JSON (body {}), which is a read.
func (c *Client) rpc(ctx context.Context, path string, out any) (time.Duration, error) {
	start := time.Now()
	resp, err := c.Do(ctx, Call{Method: http.MethodPost, Path: path, Body: []byte("{}"), Idempotent: true})
	latency := time.Since(start)
	if err != nil {
		return latency, err
	}
	switch resp.Status {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented, http.StatusUnsupportedMediaType:
		return latency, ErrNotServed
	}
	if connectCode(resp.Body) == "unimplemented" {
		return latency, ErrNotServed
	}
	if resp.Status != http.StatusOK {
		return latency, errs.New(errs.ServerError, "retry later; `loams status` shows whether the server is up",
			"%s answered %s to %s: %s", c.base.Redacted(), http.StatusText(resp.Status), path[strings.LastIndex(path, "/")+1:], connectMessage(resp.Body)).
			With("endpoint", c.URL()).With("status", resp.Status)
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return latency, errs.New(errs.ServerError, "check that the endpoint is a Loams server",
			"%s answered %s with something that is not JSON", c.base.Redacted(), path).With("endpoint", c.URL())
	}
	return latency, nil
}

// connectCode reads the code of a Connect error body ({"code","message"}).
func connectCode(body []byte) string {
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(body, &e)
	return e.Code
}

func connectMessage(body []byte) string {
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil && e.Message != "" {
		return e.Message
	}
	return "no details"
}

// snakeKeys re-encodes the top-level keys in snake_case: the Connect JSON
// mapping uses lowerCamelCase, and servers may send either.
func snakeKeys(m map[string]json.RawMessage) []byte {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[snake(k)] = v
	}
	b, _ := json.Marshal(out)
	return b
}

func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
