package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode"
)

// The stand-in's SQL is the table functions of server-facts.md and no
// more: SELECT <pk, score | *> FROM <fn> [LIMIT n], where fn is
// vector_search('kb', [..], 'embedding', 10), text_search('kb', 'refund',
// 'body', 10) or rrf(fn, fn, …). Other SQL is a 400 that says so, in the
// server's error shape, rather than a result the real engine would not give.

// sqlColumns are what a table function yields.
var sqlColumns = []map[string]string{{"name": "pk", "type": "Utf8"}, {"name": "score", "type": "Float64"}}

func (s *store) sql(r *http.Request) (int, any, error) {
	var req struct {
		Query string `json:"query"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cols, err := s.namespaceOf(r.PathValue("ns"))
	if err != nil {
		return 0, nil, err
	}
	p := &sqlParser{toks: lexSQL(req.Query), cols: cols}
	cells, hits, err := p.statement()
	if err != nil {
		return 0, nil, &apiError{http.StatusBadRequest, "invalid_argument", "sql: " + err.Error() +
			"; the stand-in runs SELECT pk, score FROM vector_search(…) | text_search(…) | rrf(…, …) [LIMIT n]"}
	}
	var columns []map[string]string
	for _, c := range cells {
		columns = append(columns, sqlColumns[c])
	}
	rows := [][]any{}
	for _, h := range hits {
		row := []any{}
		for _, c := range cells {
			row = append(row, []any{h.doc.id, h.score}[c])
		}
		rows = append(rows, row)
	}
	return http.StatusOK, map[string]any{"columns": columns, "rows": rows}, nil
}

// lexSQL splits a statement into words, quoted strings (kept with their
// quote), numbers and single-character punctuation.
func lexSQL(q string) []string {
	var toks []string
	rs := []rune(q)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '\'':
			j := i + 1
			var b strings.Builder
			for ; j < len(rs); j++ {
				if rs[j] == '\'' {
					if j+1 < len(rs) && rs[j+1] == '\'' { // '' is a quote inside
						b.WriteRune('\'')
						j++
						continue
					}
					break
				}
				b.WriteRune(rs[j])
			}
			toks = append(toks, "'"+b.String())
			i = j + 1
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '-':
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || strings.ContainsRune("_.-+eE", rs[j])) {
				j++
			}
			toks = append(toks, string(rs[i:j]))
			i = j
		default:
			toks = append(toks, string(r))
			i++
		}
	}
	return toks
}

type sqlParser struct {
	toks []string
	cols map[string]*collection
}

func (p *sqlParser) peek() string {
	if len(p.toks) == 0 {
		return ""
	}
	return p.toks[0]
}

func (p *sqlParser) next() string {
	t := p.peek()
	if len(p.toks) > 0 {
		p.toks = p.toks[1:]
	}
	return t
}

func (p *sqlParser) expect(want string) error {
	if got := p.next(); !strings.EqualFold(got, want) {
		return fmt.Errorf("expected %q, found %q", want, got)
	}
	return nil
}

// statement parses the whole query: the columns (as indexes into
// sqlColumns) and the ranked hits.
func (p *sqlParser) statement() ([]int, []hit, error) {
	if err := p.expect("SELECT"); err != nil {
		return nil, nil, err
	}
	var cells []int
	for {
		t := p.next()
		switch strings.ToLower(t) {
		case "*":
			cells = append(cells, 0, 1)
		case "pk":
			cells = append(cells, 0)
		case "score":
			cells = append(cells, 1)
		default:
			return nil, nil, fmt.Errorf("column %q: a table function has pk and score", t)
		}
		if p.peek() != "," {
			break
		}
		p.next()
	}
	if err := p.expect("FROM"); err != nil {
		return nil, nil, err
	}
	hits, err := p.tableFunction()
	if err != nil {
		return nil, nil, err
	}
	if strings.EqualFold(p.peek(), "LIMIT") {
		p.next()
		n, err := strconv.Atoi(p.next())
		if err != nil || n < 0 {
			return nil, nil, fmt.Errorf("LIMIT wants a number")
		}
		hits = hits[:min(n, len(hits))]
	}
	if p.peek() == ";" {
		p.next()
	}
	if len(p.toks) > 0 {
		return nil, nil, fmt.Errorf("unexpected %q after the table function", p.peek())
	}
	return cells, hits, nil
}

func (p *sqlParser) tableFunction() ([]hit, error) {
	fn := strings.ToLower(p.next())
	if err := p.expect("("); err != nil {
		return nil, fmt.Errorf("FROM %s: only table functions, %v", fn, err)
	}
	keep := func(*document) bool { return true }
	switch fn {
	case "rrf":
		var lists [][]hit
		for {
			list, err := p.tableFunction()
			if err != nil {
				return nil, err
			}
			lists = append(lists, list)
			if p.peek() != "," {
				break
			}
			p.next()
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return rrf(lists, rrfK), nil
	case "vector_search", "text_search":
		c, err := p.collectionArg()
		if err != nil {
			return nil, err
		}
		var vec []float64
		var text string
		if fn == "vector_search" {
			if vec, err = p.vectorArg(); err != nil {
				return nil, err
			}
		} else if text, err = p.stringArg(); err != nil {
			return nil, err
		}
		field, err := p.stringArg()
		if err != nil {
			return nil, err
		}
		k, err := strconv.Atoi(p.next())
		if err != nil {
			return nil, fmt.Errorf("%s: the last argument is k, a number", fn)
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		if fn == "vector_search" {
			return c.vectorSearch(field, vec, k, keep)
		}
		return c.textSearch(field, text, k, keep)
	}
	return nil, fmt.Errorf("unknown table function %q", fn)
}

// collectionArg is the first argument, a quoted collection name, and its comma.
func (p *sqlParser) collectionArg() (*collection, error) {
	name, err := p.stringArg()
	if err != nil {
		return nil, err
	}
	c, ok := p.cols[name]
	if !ok {
		return nil, fmt.Errorf("collection %q does not exist", name)
	}
	return c, nil
}

// stringArg is a quoted string and the comma after it, if any.
func (p *sqlParser) stringArg() (string, error) {
	t := p.next()
	s, ok := strings.CutPrefix(t, "'")
	if !ok {
		return "", fmt.Errorf("expected a quoted string, found %q", t)
	}
	if p.peek() == "," {
		p.next()
	}
	return s, nil
}

// vectorArg is [n, n, …] and the comma after it.
func (p *sqlParser) vectorArg() ([]float64, error) {
	if err := p.expect("["); err != nil {
		return nil, err
	}
	var v []float64
	for p.peek() != "]" {
		f, err := strconv.ParseFloat(p.next(), 64)
		if err != nil {
			return nil, fmt.Errorf("a vector holds numbers")
		}
		v = append(v, f)
		if p.peek() == "," {
			p.next()
		} else if p.peek() != "]" {
			return nil, fmt.Errorf("expected , or ] in a vector, found %q", p.peek())
		}
	}
	p.next()
	if p.peek() == "," {
		p.next()
	}
	return v, nil
}
