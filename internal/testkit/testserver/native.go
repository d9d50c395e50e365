package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"sync"
)

// The native REST API of server-facts.md ("The native REST API"), in
// memory, so snippets and guides can be run end to end against the
// stand-in: namespaces, collections, documents, the hybrid query and the
// SQL table functions. Where the facts fix a detail (status codes, the
// consistency token in body and header, the error shape, Retry-After on
// 503) the stand-in follows them; where they are silent (the body of a
// created collection, the per-op results) it picks the plainest answer.
// Served on the native port (--listen) only, behind guard's key check.

// apiError is the server's error shape: {"error": code, "message", …}.
type apiError struct {
	status        int
	code, message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func badRequest(format string, a ...any) *apiError {
	return &apiError{http.StatusBadRequest, "invalid_argument", fmt.Sprintf(format, a...)}
}

func notFound(format string, a ...any) *apiError {
	return &apiError{http.StatusNotFound, "not_found", fmt.Sprintf(format, a...)}
}

func writeError(w http.ResponseWriter, err error) {
	var e *apiError
	if !errors.As(err, &e) {
		e = &apiError{http.StatusInternalServerError, "internal", err.Error()}
	}
	if e.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1") // every 503 carries it
	}
	writeStatus(w, e.status, map[string]string{"error": e.code, "message": e.message})
}

// names of namespaces and collections: "collections.<c>" in a query
// names one, so a dot cannot be part of it.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// store is every namespace, under one lock: the stand-in serves tests,
// not load, and one lock makes every read strong, as the server's are by
// default.
type store struct {
	mu         sync.Mutex
	seq        uint64 // the last write's consistency token
	namespaces map[string]map[string]*collection
}

func newStore() *store {
	return &store{namespaces: map[string]map[string]*collection{"default": {}}}
}

func (s *store) token() string { return strconv.FormatUint(s.seq, 10) }

// namespaceOf finds a namespace's collections; the caller holds s.mu.
func (s *store) namespaceOf(ns string) (map[string]*collection, error) {
	cols, ok := s.namespaces[ns]
	if !ok {
		return nil, notFound("namespace %q does not exist", ns)
	}
	return cols, nil
}

// collectionOf finds a collection; the caller holds s.mu.
func (s *store) collectionOf(ns, name string) (*collection, error) {
	cols, err := s.namespaceOf(ns)
	if err != nil {
		return nil, err
	}
	c, ok := cols[name]
	if !ok {
		return nil, notFound("collection %q does not exist in namespace %q", name, ns)
	}
	return c, nil
}

// maxBody bounds a request body, as any server must.
const maxBody = 16 << 20

// decode reads a JSON body into v.
func decode(r *http.Request, v any) error {
	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &apiError{http.StatusRequestEntityTooLarge, "payload_too_large", fmt.Sprintf("the body is over %d bytes", maxBody)}
		}
		return badRequest("reading the body: %v", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return badRequest("the body is not the JSON this route takes: %v", err)
	}
	return nil
}

// headed is an answer that sets response headers of its own.
type headed interface{ setHeaders(http.Header) }

// nativeMux is what the native port (--listen) serves: the routes every
// port shares (shared) and the native API over them, with a store of its
// own.
func nativeMux(shared http.Handler, ready func() bool) *http.ServeMux {
	native := http.NewServeMux()
	native.Handle("/", shared)
	nativeRoutes(native, newStore(), ready)
	return native
}

// nativeRoutes adds the native API to mux. ready reports whether the
// metastore is up: before that every route answers 503, like /ready.
func nativeRoutes(mux *http.ServeMux, s *store, ready func() bool) {
	handle := func(pattern string, h func(*http.Request) (int, any, error)) {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			if !ready() {
				writeError(w, &apiError{http.StatusServiceUnavailable, "unavailable", "the metastore is not ready yet"})
				return
			}
			status, v, err := h(r)
			if err != nil {
				writeError(w, err)
				return
			}
			if hv, ok := v.(headed); ok {
				hv.setHeaders(w.Header())
			}
			if status == http.StatusNoContent {
				w.WriteHeader(status)
				return
			}
			writeStatus(w, status, v)
		})
	}
	handle("POST /v1/namespaces", s.createNamespace)
	handle("POST /v1/namespaces/{ns}/collections", s.createCollection)
	handle("GET /v1/namespaces/{ns}/collections", s.listCollections)
	handle("GET /v1/namespaces/{ns}/collections/{c}", s.getCollection)
	handle("DELETE /v1/namespaces/{ns}/collections/{c}", s.deleteCollection)
	handle("POST /v1/namespaces/{ns}/collections/{c}/documents", s.writeDocuments)
	handle("POST /v1/namespaces/{ns}/collections/{c}/documents/get", s.getDocuments)
	handle("POST /v1/namespaces/{ns}/query", s.query)
	handle("POST /v1/namespaces/{ns}/sql", s.sql)
	// Anything else under /v1/ is the server's 404, not Go's text one.
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, notFound("no route %s %s", r.Method, r.URL.Path))
	})
}

func (s *store) createNamespace(r *http.Request) (int, any, error) {
	var req struct {
		Name string `json:"name"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if !nameRE.MatchString(req.Name) {
		return 0, nil, badRequest("namespace name %q: use 1-128 letters, digits, '_' or '-'", req.Name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.namespaces[req.Name]; ok {
		return 0, nil, &apiError{http.StatusConflict, "already_exists", fmt.Sprintf("namespace %q exists", req.Name)}
	}
	s.namespaces[req.Name] = map[string]*collection{}
	return http.StatusCreated, map[string]string{"id": req.Name}, nil
}

// collectionInfo is how a collection is listed and got.
type collectionInfo struct {
	Name      string `json:"name"`
	Schema    schema `json:"schema"`
	Documents int    `json:"documents"`
}

func (c *collection) info() collectionInfo {
	return collectionInfo{Name: c.name, Schema: c.schema, Documents: len(c.docs)}
}

func (s *store) createCollection(r *http.Request) (int, any, error) {
	var req struct {
		Name   string  `json:"name"`
		Schema *schema `json:"schema"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if !nameRE.MatchString(req.Name) {
		return 0, nil, badRequest("collection name %q: use 1-128 letters, digits, '_' or '-'", req.Name)
	}
	if req.Schema == nil {
		return 0, nil, badRequest("a collection needs a schema: {\"fields\":[…], \"vectors\":[…]}")
	}
	if err := req.Schema.check(); err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cols, err := s.namespaceOf(r.PathValue("ns"))
	if err != nil {
		return 0, nil, err
	}
	if _, ok := cols[req.Name]; ok {
		return 0, nil, &apiError{http.StatusConflict, "already_exists", fmt.Sprintf("collection %q exists", req.Name)}
	}
	c := &collection{name: req.Name, schema: *req.Schema, docs: map[string]*document{}}
	cols[req.Name] = c
	return http.StatusCreated, c.info(), nil
}

func (s *store) listCollections(r *http.Request) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cols, err := s.namespaceOf(r.PathValue("ns"))
	if err != nil {
		return 0, nil, err
	}
	out := []collectionInfo{}
	for _, c := range cols {
		out = append(out, c.info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return http.StatusOK, map[string]any{"collections": out}, nil
}

func (s *store) getCollection(r *http.Request) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.collectionOf(r.PathValue("ns"), r.PathValue("c"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, c.info(), nil
}

func (s *store) deleteCollection(r *http.Request) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.collectionOf(r.PathValue("ns"), r.PathValue("c")); err != nil {
		return 0, nil, err
	}
	delete(s.namespaces[r.PathValue("ns")], r.PathValue("c"))
	s.seq++
	return http.StatusNoContent, nil, nil
}
