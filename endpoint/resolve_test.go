package endpoint

import (
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

func TestResolvePrecedenceAndLocalStacks(t *testing.T) {
	locals := func() ([]LocalStack, error) {
		return []LocalStack{{Name: "dev", URL: "http://127.0.0.1:8080"}, {Name: "other", URL: "http://127.0.0.1:9080"}}, nil
	}
	staging := Profile{Name: "staging", Endpoint: "https://loams.example.com", Namespace: "app", CACert: "/ca.pem",
		Surfaces: map[string]string{"qdrant": "https://q.example.com"}, DefaultStack: "dev"}
	tests := []struct {
		name      string
		req       Request
		kind      Kind
		url, from string
		stack     string
	}{
		{"flag wins", Request{Flag: "https://flag.example.com", Env: "https://env.example.com", Profile: staging}, Remote, "https://flag.example.com", "--endpoint", ""},
		{"env over profile", Request{Env: "https://env.example.com/", Profile: staging}, Remote, "https://env.example.com", "LOAMS_ENDPOINT", ""},
		{"profile", Request{Profile: staging}, Remote, "https://loams.example.com", "profile", ""},
		{"default stack", Request{Profile: Profile{Name: "default", DefaultStack: "dev"}}, Local, "", "default_stack", "dev"},
		{"local:STACK", Request{Flag: "local:other", Profile: staging}, Local, "http://127.0.0.1:9080", "--endpoint", "other"},
		{"sourced .env.loams is the stack", Request{Env: "http://127.0.0.1:8080", Profile: staging}, Local, "http://127.0.0.1:8080", "LOAMS_ENDPOINT", "dev"},
		{"localhost is 127.0.0.1", Request{Flag: "http://localhost:9080/"}, Local, "http://127.0.0.1:9080", "--endpoint", "other"},
		{"another loopback port is remote", Request{Flag: "http://127.0.0.1:7000"}, Remote, "http://127.0.0.1:7000", "--endpoint", ""},
		{"a path prefix is kept", Request{Flag: "https://example.com/loams/"}, Remote, "https://example.com/loams", "--endpoint", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Locals = locals
			ep, err := Resolve(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if ep.Kind != tt.kind || ep.URL != tt.url || ep.From != tt.from || ep.Stack != tt.stack {
				t.Fatalf("got %+v", ep)
			}
			if ep.Kind == Remote && tt.req.Profile.Name == "staging" && (ep.Namespace != "app" || ep.CACert != "/ca.pem" || ep.Surfaces["qdrant"] == "") {
				t.Fatalf("the profile's settings are lost: %+v", ep)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	locals := func() ([]LocalStack, error) { return nil, nil }
	for in, code := range map[string]errs.Code{
		"local:nope":                  errs.StackNotFound,
		"local:Bad_Name":              errs.Usage,
		"ftp://x":                     errs.Usage,
		"loams.example.com":           errs.Usage,
		"https://u:pw@x.example.com":  errs.Usage,
		"https://x.example.com/?a=1":  errs.Usage,
		"http://x.example.com":        errs.InsecureEndpoint,
		"https://x.example.com:99999": errs.Usage, // no origin to bind a key to
		"https://\u0300x.example":     errs.Usage, // a label IDNA refuses
	} {
		_, err := Resolve(Request{Flag: in, Locals: locals})
		if !errs.Is(err, code) {
			t.Errorf("%s: %v; want %s", in, err, code)
		}
		if e := errs.As(err); e != nil && in == "https://u:pw@x.example.com" && (strings.Contains(e.Message, "pw") || e.Details["endpoint"] != nil) {
			t.Errorf("the credentials of the URL are echoed: %q", e.Message)
		}
	}
}
