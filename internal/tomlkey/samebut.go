package tomlkey

import (
	"maps"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/BurntSushi/toml"
)

// SameBut reports whether after decodes to the document before decodes
// to, everywhere but at path (one key, or one whole table), and what after
// holds at path (nil: nothing). Every line editor asks it before it
// writes: the scan is the editor's own reading of the lines, the decoder
// is what everyone else reads, and a file the two read differently is
// refused rather than edited in the wrong place. An error is before or
// after not decoding.
func SameBut(before, after []byte, path ...string) (same bool, at any, err error) {
	var a, b map[string]any
	if _, err := toml.Decode(string(before), &a); err != nil {
		return false, nil, err
	}
	if _, err := toml.Decode(string(after), &b); err != nil {
		return false, nil, err
	}
	drop(a, path)
	at = drop(b, path)
	return equal(a, b), at, nil
}

// drop deletes path from doc and returns what was there (nil: nothing),
// and deletes the tables along it that it leaves empty: setting a key may
// create its tables, and removing one may leave them behind.
func drop(doc map[string]any, path []string) any {
	switch len(path) {
	case 0:
		return nil
	case 1:
		v := doc[path[0]]
		delete(doc, path[0])
		return v
	}
	sub, ok := doc[path[0]].(map[string]any)
	if !ok {
		return nil
	}
	v := drop(sub, path[1:])
	if len(sub) == 0 {
		delete(doc, path[0])
	}
	return v
}

// equal is reflect.DeepEqual but for what a decoder gives twice over: a
// nan equals a nan, and times are equal when they are the same instant in
// the same zone.
func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && maps.EqualFunc(x, y, equal)
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, equal)
	case []map[string]any: // an array of tables
		y, ok := b.([]map[string]any)
		return ok && slices.EqualFunc(x, y, func(p, q map[string]any) bool { return equal(p, q) })
	case float64:
		y, ok := b.(float64)
		return ok && (x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y))
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y) && x.Location().String() == y.Location().String()
	}
	return reflect.DeepEqual(a, b)
}
