package serverbin_test

import (
	"context"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/serverbin"
)

// GetInstance goes through the one endpoint client: its URL rules and its
// TLS verification apply, and an answer parses the same way.
func TestGetInstanceUsesTheEndpointClient(t *testing.T) {
	if _, err := serverbin.GetInstance(context.Background(), "http://203.0.113.7:8080"); !errs.Is(err, errs.InsecureEndpoint) {
		t.Fatalf("http off loopback = %v; want insecure_endpoint before any dial", err)
	}
	srv, _ := standin.StartTLS(t, "")
	if _, err := serverbin.GetInstance(context.Background(), srv.URL); !errs.Is(err, errs.TLSError) {
		t.Fatalf("untrusted certificate = %v; want tls_error", err)
	}
	plain := standin.Start(t, standin.Options{})
	in, err := serverbin.GetInstance(context.Background(), plain.URL)
	if err != nil || in.ServerVersion == "" || len(in.Services) == 0 {
		t.Fatalf("GetInstance = %+v, %v", in, err)
	}
}
