package endpoint

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The stack readiness probe builds a client per poll (stack/state.go):
// this is its whole cost on loopback, against reusing one client.
func BenchmarkReadyProbe(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	defer srv.Close()
	b.Run("new client per probe", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			c, err := New(srv.URL, Options{Retries: -1})
			if err != nil || !c.Ready(context.Background()) {
				b.Fatal("not ready")
			}
			c.Close()
		}
	})
	b.Run("one client", func(b *testing.B) {
		c, _ := New(srv.URL, Options{Retries: -1})
		defer c.Close()
		for i := 0; i < b.N; i++ {
			if !c.Ready(context.Background()) {
				b.Fatal("not ready")
			}
		}
	})
}
