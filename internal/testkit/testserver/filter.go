package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// compileFilter turns a query's "filter" into a predicate. The filters
// are server-facts.md's: and|or|not|term|terms|range|exists|ids|match.
// A filter names schema fields (not source keys): a field the schema does
// not have is a 400, as an unindexed field cannot be filtered on.
func (c *collection) compileFilter(raw json.RawMessage) (func(*document) bool, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return func(*document) bool { return true }, nil
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil || len(f) != 1 {
		return nil, badRequest("filter %s: want one of {and|or|not|term|terms|range|exists|ids|match: …}", raw)
	}
	var keep func(*document) bool
	var err error
	for op, arg := range f { // the one entry
		if keep, err = c.filterOp(op, arg); err != nil {
			return nil, badRequest("filter %s: %s", op, err.Error())
		}
	}
	return keep, nil
}

func (c *collection) filterOp(op string, arg json.RawMessage) (func(*document) bool, error) {
	switch op {
	case "and", "or":
		var subs []json.RawMessage
		if err := json.Unmarshal(arg, &subs); err != nil {
			return nil, fmt.Errorf("want a list of filters")
		}
		var preds []func(*document) bool
		for _, s := range subs {
			p, err := c.compileFilter(s)
			if err != nil {
				return nil, err
			}
			preds = append(preds, p)
		}
		if op == "and" {
			return func(d *document) bool {
				return !slices.ContainsFunc(preds, func(p func(*document) bool) bool { return !p(d) })
			}, nil
		}
		return func(d *document) bool {
			return slices.ContainsFunc(preds, func(p func(*document) bool) bool { return p(d) })
		}, nil
	case "not":
		p, err := c.compileFilter(arg)
		if err != nil {
			return nil, err
		}
		return func(d *document) bool { return !p(d) }, nil
	case "ids":
		var ids []json.RawMessage
		if err := json.Unmarshal(arg, &ids); err != nil {
			return nil, fmt.Errorf(`want ["id", …]`)
		}
		set := map[string]bool{}
		for _, raw := range ids {
			id, _ := docID(raw)
			set[id] = true
		}
		return func(d *document) bool { return set[d.id] }, nil
	case "exists":
		var e struct {
			Field string `json:"field"`
		}
		if err := json.Unmarshal(arg, &e); err != nil {
			return nil, fmt.Errorf(`want {"field": "…"}`)
		}
		f, err := c.filterField(e.Field)
		if err != nil {
			return nil, err
		}
		return func(d *document) bool { _, ok := d.lookup(f.path()); return ok }, nil
	case "term", "terms", "range", "match":
		var m map[string]json.RawMessage
		if err := json.Unmarshal(arg, &m); err != nil || len(m) != 1 {
			return nil, fmt.Errorf(`want {"<field>": …}, one field`)
		}
		for name, v := range m {
			f, err := c.filterField(name)
			if err != nil {
				return nil, err
			}
			return fieldPredicate(op, f, v)
		}
	}
	return nil, fmt.Errorf("unknown filter: want and|or|not|term|terms|range|exists|ids|match")
}

func (c *collection) filterField(name string) (schemaField, error) {
	f, ok := c.schema.field(name)
	if !ok {
		return f, fmt.Errorf("field %q is not in the schema of %q", name, c.name)
	}
	return f, nil
}

// fieldPredicate is term, terms, range or match on one field. A term on a
// text field matches one of its tokens; on any other field, the value.
func fieldPredicate(op string, f schemaField, arg json.RawMessage) (func(*document) bool, error) {
	var want []any
	switch op {
	case "term":
		var v any
		if err := json.Unmarshal(arg, &v); err != nil {
			return nil, err
		}
		want = []any{v}
	case "terms":
		if err := json.Unmarshal(arg, &want); err != nil {
			return nil, fmt.Errorf("terms: want a list of values")
		}
	case "match":
		var q string
		if err := json.Unmarshal(arg, &q); err != nil {
			return nil, fmt.Errorf("match: want a string")
		}
		terms := tokens(q)
		return func(d *document) bool {
			v, _ := d.lookup(f.path())
			s, _ := v.(string)
			return slices.ContainsFunc(tokens(s), func(t string) bool { return slices.Contains(terms, t) })
		}, nil
	case "range":
		var r map[string]any
		if err := json.Unmarshal(arg, &r); err != nil || len(r) == 0 {
			return nil, fmt.Errorf("range: want {gt|gte|lt|lte: value}")
		}
		for k := range r {
			if !slices.Contains([]string{"gt", "gte", "lt", "lte"}, k) {
				return nil, fmt.Errorf("range: %q: want gt, gte, lt or lte", k)
			}
		}
		return func(d *document) bool {
			v, ok := d.lookup(f.path())
			if !ok {
				return false
			}
			for k, bound := range r {
				cmp, ok := compare(v, bound)
				if !ok || (k == "gt" && cmp <= 0) || (k == "gte" && cmp < 0) || (k == "lt" && cmp >= 0) || (k == "lte" && cmp > 0) {
					return false
				}
			}
			return true
		}, nil
	}
	text := f.kind() == "text"
	return func(d *document) bool {
		v, ok := d.lookup(f.path())
		if !ok {
			return false
		}
		for _, w := range want {
			if text {
				s, _ := w.(string)
				got, _ := v.(string)
				if slices.Contains(tokens(got), strings.ToLower(s)) {
					return true
				}
			} else if c, ok := compare(v, w); ok && c == 0 {
				return true
			}
		}
		return false
	}, nil
}

// compare orders two JSON values of the same type (numbers, strings or
// booleans); ok is false for any other pair.
func compare(a, b any) (int, bool) {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		if !ok {
			return 0, false
		}
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	case string:
		y, ok := b.(string)
		if !ok {
			return 0, false
		}
		return strings.Compare(x, y), true
	case bool:
		y, ok := b.(bool)
		if !ok || x != y {
			return 1, ok
		}
		return 0, true
	}
	return 0, false
}
