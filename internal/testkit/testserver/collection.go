package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// schema is a collection's schema as server-facts.md writes it. It is
// checked loosely: what a query or a write relies on (names, kinds,
// vector dimensions and distances) must make sense; the rest is kept as
// given.
type schema struct {
	Fields        []schemaField     `json:"fields"`
	Vectors       []vectorField     `json:"vectors"`
	SparseVectors []json.RawMessage `json:"sparse_vectors"`
	Dynamic       string            `json:"dynamic,omitempty"`
	MaxFields     int               `json:"max_fields,omitempty"`
}

type schemaField struct {
	Name       string          `json:"name"`
	SourcePath string          `json:"source_path,omitempty"`
	Kind       json.RawMessage `json:"kind"`
	Indexed    bool            `json:"indexed,omitempty"`
	Fast       bool            `json:"fast,omitempty"`
}

type vectorField struct {
	Name     string `json:"name"`
	Dim      int    `json:"dim"`
	Distance string `json:"distance"`
}

// kind is "keyword" for "keyword" and "text" for {"text":{…}}.
func (f schemaField) kind() string {
	var s string
	if json.Unmarshal(f.Kind, &s) == nil {
		return s
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(f.Kind, &m) == nil && len(m) == 1 {
		for k := range m {
			return k
		}
	}
	return ""
}

// path is where the field's value sits in a document's source.
func (f schemaField) path() string {
	if f.SourcePath != "" {
		return f.SourcePath
	}
	return f.Name
}

var (
	fieldKinds = []string{"text", "keyword", "i64", "u64", "f64", "bool", "date", "bytes", "json"}
	distances  = []string{"cosine", "dot", "l2"}
	dynamics   = []string{"", "ignore", "strict", "index"}
)

func (s schema) check() error {
	seen := map[string]bool{}
	for _, f := range s.Fields {
		if f.Name == "" || seen[f.Name] {
			return badRequest("schema: field name %q is empty or given twice", f.Name)
		}
		seen[f.Name] = true
		if !slices.Contains(fieldKinds, f.kind()) {
			return badRequest("schema: field %q: kind %s: want \"keyword\", {\"text\":{…}} or one of %s", f.Name, f.Kind, strings.Join(fieldKinds, ", "))
		}
	}
	for _, v := range s.Vectors {
		if v.Name == "" || seen[v.Name] {
			return badRequest("schema: vector name %q is empty or given twice", v.Name)
		}
		seen[v.Name] = true
		if v.Dim <= 0 || v.Dim > 65536 {
			return badRequest("schema: vector %q: dim %d is not between 1 and 65536", v.Name, v.Dim)
		}
		if !slices.Contains(distances, v.Distance) {
			return badRequest("schema: vector %q: distance %q: want one of %s", v.Name, v.Distance, strings.Join(distances, ", "))
		}
	}
	if !slices.Contains(dynamics, s.Dynamic) {
		return badRequest("schema: dynamic %q: want ignore, strict or index", s.Dynamic)
	}
	if s.MaxFields > 0 && len(s.Fields) > s.MaxFields {
		return badRequest("schema: %d fields, over max_fields %d", len(s.Fields), s.MaxFields)
	}
	return nil
}

func (s schema) field(name string) (schemaField, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return schemaField{}, false
}

func (s schema) vector(name string) (vectorField, bool) {
	for _, v := range s.Vectors {
		if v.Name == name {
			return v, true
		}
	}
	return vectorField{}, false
}

type collection struct {
	name   string
	schema schema
	docs   map[string]*document
}

type document struct {
	id      string
	source  map[string]any
	vectors map[string][]float64
}

// lookup follows a dotted source path.
func (d *document) lookup(path string) (any, bool) {
	var v any = d.source
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[part]; !ok {
			return nil, false
		}
	}
	return v, true
}

// writeResult is the body of a write: the token and one result per op.
type writeResult struct {
	Token   string           `json:"token"`
	Results []map[string]any `json:"results"`
}

// setHeaders puts the token in its header too: every write returns it in both.
func (w *writeResult) setHeaders(h http.Header) { h.Set("Loams-Consistency-Token", w.Token) }

// op is one entry of "ops": exactly one of upsert and delete.
type op struct {
	Upsert *struct {
		ID      json.RawMessage      `json:"id"`
		Source  map[string]any       `json:"source"`
		Vectors map[string][]float64 `json:"vectors"`
	} `json:"upsert"`
	Delete json.RawMessage `json:"delete"`
}

// docID reads an id given as a string or a number ("1" and 1 are the
// same document, as pk is always returned as a string).
func docID(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, s != ""
	}
	var n json.Number
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&n) == nil {
		return n.String(), true
	}
	return "", false
}

// writeDocuments applies a batch of ops: all of them, or none when one is
// wrong, so a 400 leaves the collection as it was.
func (s *store) writeDocuments(r *http.Request) (int, any, error) {
	var req struct {
		Ops []op `json:"ops"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if len(req.Ops) == 0 {
		return 0, nil, badRequest(`"ops" is empty: send [{"upsert":{"id","source","vectors"}}] or [{"delete":{"id"}}]`)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.collectionOf(r.PathValue("ns"), r.PathValue("c"))
	if err != nil {
		return 0, nil, err
	}
	type change struct {
		id  string
		doc *document // nil deletes
	}
	var changes []change
	for i, o := range req.Ops {
		switch {
		case o.Upsert != nil && o.Delete == nil:
			id, ok := docID(o.Upsert.ID)
			if !ok {
				return 0, nil, badRequest("ops[%d].upsert: \"id\" must be a non-empty string or a number", i)
			}
			doc := &document{id: id, source: o.Upsert.Source, vectors: o.Upsert.Vectors}
			if doc.source == nil {
				doc.source = map[string]any{}
			}
			if err := c.admit(doc); err != nil {
				return 0, nil, badRequest("ops[%d].upsert (id %q): %s", i, id, err)
			}
			changes = append(changes, change{id, doc})
		case o.Delete != nil && o.Upsert == nil:
			var byID struct {
				ID json.RawMessage `json:"id"`
			}
			raw := o.Delete
			if json.Unmarshal(o.Delete, &byID) == nil && byID.ID != nil {
				raw = byID.ID
			}
			id, ok := docID(raw)
			if !ok {
				return 0, nil, badRequest("ops[%d].delete: want {\"id\": \"…\"}", i)
			}
			changes = append(changes, change{id: id})
		default:
			return 0, nil, badRequest("ops[%d]: each op is {\"upsert\":{…}} or {\"delete\":{…}}, one of them", i)
		}
	}
	s.seq++
	res := &writeResult{Token: s.token()}
	for _, ch := range changes {
		_, existed := c.docs[ch.id]
		var result map[string]any
		switch {
		case ch.doc == nil && existed:
			delete(c.docs, ch.id)
			result = map[string]any{"id": ch.id, "op": "delete", "result": "deleted"}
		case ch.doc == nil:
			result = map[string]any{"id": ch.id, "op": "delete", "result": "not_found"}
		default:
			c.docs[ch.id] = ch.doc
			result = map[string]any{"id": ch.id, "op": "upsert", "result": map[bool]string{true: "updated", false: "created"}[existed]}
		}
		res.Results = append(res.Results, result)
	}
	return http.StatusOK, res, nil
}

// admit checks a document against the schema: vectors the schema names,
// with its dimension; under "dynamic":"strict", no source key the schema
// does not map.
func (c *collection) admit(d *document) error {
	for name, v := range d.vectors {
		vf, ok := c.schema.vector(name)
		if !ok {
			return fmt.Errorf("vector %q is not in the schema", name)
		}
		if len(v) != vf.Dim {
			return fmt.Errorf("vector %q has %d dimensions, the schema says %d", name, len(v), vf.Dim)
		}
	}
	if c.schema.Dynamic == "strict" {
		for key := range d.source {
			if !slices.ContainsFunc(c.schema.Fields, func(f schemaField) bool { return strings.Split(f.path(), ".")[0] == key }) {
				return fmt.Errorf("source key %q is not in the schema (dynamic: strict)", key)
			}
		}
	}
	return nil
}

// getDocuments is POST …/documents/get {ids, select}: the documents found,
// in the order asked, each source cut to the select list when one is given.
func (s *store) getDocuments(r *http.Request) (int, any, error) {
	var req struct {
		IDs    []json.RawMessage `json:"ids"`
		Select []string          `json:"select"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.collectionOf(r.PathValue("ns"), r.PathValue("c"))
	if err != nil {
		return 0, nil, err
	}
	docs := []map[string]any{}
	for i, raw := range req.IDs {
		id, ok := docID(raw)
		if !ok {
			return 0, nil, badRequest("ids[%d] must be a non-empty string or a number", i)
		}
		if d, ok := c.docs[id]; ok {
			docs = append(docs, map[string]any{"id": id, "source": selectSource(d, req.Select)})
		}
	}
	return http.StatusOK, map[string]any{"documents": docs, "read_token": s.token()}, nil
}

// selectSource is the source, or only the keys named (all when none are).
func selectSource(d *document, keys []string) map[string]any {
	if len(keys) == 0 {
		return d.source
	}
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := d.lookup(k); ok {
			out[k] = v
		}
	}
	return out
}
