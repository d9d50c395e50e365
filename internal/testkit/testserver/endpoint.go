package main

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"os"
	"strings"
)

// Endpoint knobs (endpoints.md, "Testing it here"):
//
//	--tls-cert FILE --tls-key FILE   serve the native API (--listen) over TLS
//	LOAMS_API_KEY=<key>              every route but /health, /ready and
//	                                 GetInstance (no auth, as the real server)
//	                                 answers 401 without "Authorization: Bearer <key>"
//	TESTSERVER_HEADERS=FILE          append each request's method, path, status and
//	                                 Authorization/Loams-Namespace presence as JSON lines
//
// The stand-in serves GetInstance (server.md) and WhoAmI (key id only).

type tlsFiles struct{ cert, key string }

// open routes answer without a key, as the real server's do.
var openRoutes = map[string]bool{"/health": true, "/ready": true, "/loams.instance.v1.InstanceService/GetInstance": true}

func instanceRoutes(mux *http.ServeMux, getInstance http.HandlerFunc) {
	mux.HandleFunc("/loams.instance.v1.InstanceService/GetInstance", getInstance) // instance.go
	mux.HandleFunc("POST /loams.instance.v1.InstanceService/WhoAmI", func(w http.ResponseWriter, r *http.Request) {
		key := os.Getenv("LOAMS_API_KEY")
		id := ""
		if len(key) >= 18 {
			id = key[6:18] // the key id is public: loams_<key_id>_<secret>
		}
		writeJSON(w, map[string]any{"principal": "stand-in-user", "keyId": id})
	})
}

// guard answers 401 to requests without the key the server was started
// with, and records each request (with the status it got, so snippet runs
// can tell a call that worked from one that reached the server) for the
// redirect tests and scripts/run-*-snippets.
func guard(next http.Handler) http.Handler {
	key := os.Getenv("LOAMS_API_KEY")
	record := os.Getenv("TESTSERVER_HEADERS")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		if record != "" {
			// Written before the response is finished, so a client that
			// has its answer finds the line.
			defer func() {
				line, _ := json.Marshal(map[string]any{"method": r.Method, "path": r.URL.Path, "status": sw.status,
					"authorization": r.Header.Get("Authorization") != "", "namespace": r.Header.Get("Loams-Namespace")})
				if f, err := os.OpenFile(record, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
					f.Write(append(line, '\n'))
					f.Close()
				}
			}()
		}
		if key != "" && !openRoutes[r.URL.Path] {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(key)) != 1 {
				// The REST API's errors are {"error", "message"}; the
				// Connect routes' are {"code", "message"}.
				if strings.HasPrefix(r.URL.Path, "/v1/") {
					writeError(sw, &apiError{http.StatusUnauthorized, "unauthenticated", "missing or wrong API key"})
					return
				}
				sw.Header().Set("Content-Type", "application/json")
				sw.WriteHeader(http.StatusUnauthorized)
				sw.Write([]byte(`{"code":"unauthenticated","message":"missing or wrong API key"}`))
				return
			}
		}
		next.ServeHTTP(sw, r)
	})
}

// statusWriter remembers the status a handler answered.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

// writeJSON answers 200 with v as JSON.
func writeJSON(w http.ResponseWriter, v any) { writeStatus(w, http.StatusOK, v) }

// writeStatus answers status with v as JSON: every JSON answer of the
// stand-in, errors (writeError) included.
func writeStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
