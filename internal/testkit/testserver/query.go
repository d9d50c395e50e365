package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"unicode"
)

// hit is one ranked document.
type hit struct {
	doc   *document
	score float64
}

// queryRequest is POST /v1/namespaces/{ns}/query.
type queryRequest struct {
	From     string `json:"from"`
	Retrieve []struct {
		Vector *struct {
			Field string    `json:"field"`
			Query []float64 `json:"query"`
			K     int       `json:"k"`
		} `json:"vector"`
		Text *struct {
			Field string `json:"field"`
			Query string `json:"query"`
			K     int    `json:"k"`
		} `json:"text"`
	} `json:"retrieve"`
	Filter json.RawMessage `json:"filter"`
	Fuse   *struct {
		Method string  `json:"method"`
		K      float64 `json:"k"`
	} `json:"fuse"`
	Limit int `json:"limit"`
}

// defaultLimit is the number of hits (and each retriever's k) when none is given.
const defaultLimit = 10

func (s *store) query(r *http.Request) (int, any, error) {
	var req queryRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	name, ok := strings.CutPrefix(req.From, "collections.")
	if !ok {
		return 0, nil, badRequest(`"from" is %q: name a collection as "collections.<name>"`, req.From)
	}
	if req.Limit < 0 {
		return 0, nil, badRequest(`"limit" is %d: want 1 or more`, req.Limit)
	}
	if req.Limit == 0 {
		req.Limit = defaultLimit
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.collectionOf(r.PathValue("ns"), name)
	if err != nil {
		return 0, nil, err
	}
	keep, err := c.compileFilter(req.Filter)
	if err != nil {
		return 0, nil, err
	}
	var lists [][]hit
	for i, rt := range req.Retrieve {
		var list []hit
		switch {
		case rt.Vector != nil && rt.Text == nil:
			list, err = c.vectorSearch(rt.Vector.Field, rt.Vector.Query, rt.Vector.K, keep)
		case rt.Text != nil && rt.Vector == nil:
			list, err = c.textSearch(rt.Text.Field, rt.Text.Query, rt.Text.K, keep)
		default:
			return 0, nil, badRequest(`retrieve[%d]: each retriever is {"vector":{field,query,k}} or {"text":{field,query,k}}`, i)
		}
		if err != nil {
			return 0, nil, badRequest("retrieve[%d]: %s", i, err.Error())
		}
		lists = append(lists, list)
	}
	var hits []hit
	switch {
	case len(lists) == 0: // a filter-only query: matching documents by pk
		for _, d := range c.sortedDocs() {
			if keep(d) {
				hits = append(hits, hit{d, 0})
			}
		}
	case len(lists) == 1 && req.Fuse == nil:
		hits = lists[0]
	default:
		k := rrfK
		if req.Fuse != nil {
			if req.Fuse.Method != "rrf" {
				return 0, nil, badRequest(`fuse.method %q: the stand-in fuses with "rrf" only`, req.Fuse.Method)
			}
			if req.Fuse.K > 0 {
				k = req.Fuse.K
			}
		}
		hits = rrf(lists, k)
	}
	if len(hits) > req.Limit {
		hits = hits[:req.Limit]
	}
	out := []map[string]any{}
	for _, h := range hits {
		out = append(out, map[string]any{"pk": h.doc.id, "score": h.score, "source": h.doc.source})
	}
	return http.StatusOK, map[string]any{"hits": out, "read_token": s.token()}, nil
}

// sortedDocs is every document by pk, so ties rank the same every time.
func (c *collection) sortedDocs() []*document {
	docs := make([]*document, 0, len(c.docs))
	for _, d := range c.docs {
		docs = append(docs, d)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].id < docs[j].id })
	return docs
}

// ranked sorts by score, best first (ties by pk), and keeps k.
func ranked(hits []hit, k int) []hit {
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	if k <= 0 {
		k = defaultLimit
	}
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// vectorSearch ranks the documents having the vector by similarity to q,
// with the distance the schema gives the vector.
func (c *collection) vectorSearch(field string, q []float64, k int, keep func(*document) bool) ([]hit, error) {
	vf, ok := c.schema.vector(field)
	if !ok {
		return nil, fmt.Errorf("vector field %q is not in the schema of %q", field, c.name)
	}
	if len(q) != vf.Dim {
		return nil, fmt.Errorf("the query vector has %d dimensions, %q has %d", len(q), field, vf.Dim)
	}
	var hits []hit
	for _, d := range c.sortedDocs() {
		v, ok := d.vectors[field]
		if !ok || !keep(d) {
			continue
		}
		hits = append(hits, hit{d, similarity(vf.Distance, q, v)})
	}
	return ranked(hits, k), nil
}

func similarity(distance string, a, b []float64) float64 {
	var dot, na, nb, l2 float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
		l2 += (a[i] - b[i]) * (a[i] - b[i])
	}
	switch distance {
	case "dot":
		return dot
	case "l2":
		return 1 / (1 + math.Sqrt(l2))
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// tokens is the standard analyzer: split on what is not a letter or a
// digit, lower-cased, no stemming ("refund" does not match "refunds").
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// textSearch ranks the documents whose text field holds a query term,
// by BM25 (k1 1.2, b 0.75) over the collection.
func (c *collection) textSearch(field, q string, k int, keep func(*document) bool) ([]hit, error) {
	f, ok := c.schema.field(field)
	if !ok {
		return nil, fmt.Errorf("text field %q is not in the schema of %q", field, c.name)
	}
	if f.kind() != "text" {
		return nil, fmt.Errorf("field %q is %s, not text: filter on it with term instead", field, f.kind())
	}
	terms := tokens(q)
	if len(terms) == 0 {
		return nil, fmt.Errorf("the text query %q has no terms", q)
	}
	docs := c.sortedDocs()
	toks := map[*document][]string{}
	df := map[string]int{}
	total := 0
	for _, d := range docs {
		v, _ := d.lookup(f.path())
		s, _ := v.(string)
		toks[d] = tokens(s)
		total += len(toks[d])
		seen := map[string]bool{}
		for _, t := range toks[d] {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	if len(docs) == 0 {
		return nil, nil
	}
	avg := float64(total) / float64(len(docs))
	var hits []hit
	for _, d := range docs {
		if !keep(d) {
			continue
		}
		score := 0.0
		for _, t := range terms {
			tf := 0.0
			for _, x := range toks[d] {
				if x == t {
					tf++
				}
			}
			if tf == 0 {
				continue
			}
			n := float64(df[t])
			idf := math.Log(1 + (float64(len(docs))-n+0.5)/(n+0.5))
			score += idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*float64(len(toks[d]))/avg))
		}
		if score > 0 {
			hits = append(hits, hit{d, score})
		}
	}
	return ranked(hits, k), nil
}

// rrfK is RRF's k when a query does not set fuse.k, and the SQL rrf()'s.
const rrfK = 60.0

// rrf fuses ranked lists by reciprocal rank: the sum of 1/(k + rank).
func rrf(lists [][]hit, k float64) []hit {
	score := map[*document]float64{}
	for _, list := range lists {
		for rank, h := range list {
			score[h.doc] += 1 / (k + float64(rank+1))
		}
	}
	var out []hit
	for d, s := range score {
		out = append(out, hit{d, s})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].doc.id < out[j].doc.id
	})
	return out
}
