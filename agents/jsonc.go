package agents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/tailscale/hujson"

	"loams.dev/cli/internal/plainjson"
)

// This file edits one member of a host's JSON or JSONC config and leaves
// every other byte as it was. hujson parses the file into a syntax tree
// that keeps comments, whitespace and trailing commas, and packs it back
// byte for byte; we only replace or insert the members we own. What the
// library does not do, and this file does: keep a UTF-8 BOM (hujson
// rejects it), lay out new members in the file's own indentation and line
// endings (its Format would reformat the whole file), refuse duplicate
// keys (it accepts them), and refuse comments in strict-JSON files.

const bom = "\xEF\xBB\xBF"

// jsonDoc is a parsed config file plus what a re-pack needs to restore.
type jsonDoc struct {
	root hujson.Value
	bom  bool
	nl   string // "\n" or "\r\n", as the file writes it
	unit string // one indentation level
}

// errDuplicate is a key the host would read one of: we cannot know which.
type errDuplicate struct{ key string }

func (e errDuplicate) Error() string {
	return fmt.Sprintf("the key %q appears more than once; the host reads only one of them", e.key)
}

// errNotObject says where the document stops looking like a config file.
type errNotObject struct{ what string }

func (e errNotObject) Error() string { return e.what + " is not a JSON object" }

// errComments: a strict-JSON host cannot read this file as it is.
var errComments = errors.New("it has comments or trailing commas, which this host's strict JSON parser rejects")

func parseJSONDoc(b []byte, strict bool) (*jsonDoc, error) {
	d := &jsonDoc{nl: "\n", unit: "  "}
	if bytes.HasPrefix(b, []byte(bom)) {
		d.bom, b = true, b[len(bom):]
	}
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}\n")
	}
	if bytes.Contains(b, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	v, err := hujson.Parse(slices.Clone(b))
	if err != nil {
		return nil, err
	}
	if strict && !v.IsStandard() {
		return nil, errComments
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, errNotObject{"the document"}
	}
	if len(root.Members) > 0 {
		if ind, ok := lineIndent(root.Members[0].Name.BeforeExtra); ok && ind != "" {
			d.unit = ind
		}
	}
	d.root = v
	return d, nil
}

func (d *jsonDoc) bytes() []byte {
	out := d.root.Pack()
	if d.bom {
		out = append([]byte(bom), out...)
	}
	return out
}

// lineIndent is the whitespace after the last line break of extra (ok is
// false when extra has no line break: the member shares its line).
func lineIndent(extra hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return "", false
	}
	rest := extra[i+1:]
	if len(bytes.Trim(rest, " \t")) != 0 {
		return "", false
	}
	return string(rest), true
}

func memberName(m hujson.ObjectMember) string {
	var s string
	if lit, ok := m.Name.Value.(hujson.Literal); ok {
		json.Unmarshal(lit, &s)
	}
	return s
}

// find returns the index of key in obj (-1 if absent), refusing duplicates.
func find(obj *hujson.Object, key string) (int, error) {
	at := -1
	for i, m := range obj.Members {
		if memberName(m) == key {
			if at >= 0 {
				return -1, errDuplicate{key}
			}
			at = i
		}
	}
	return at, nil
}

// level is an object in the tree and the indentation of its members.
type level struct {
	obj    *hujson.Object
	indent string // of the line holding the object's opening brace
}

// descend follows path from the root; it stops at the first missing key
// and returns the levels found and how many keys were found.
func (d *jsonDoc) descend(path []string) ([]level, error) {
	levels := []level{{obj: d.root.Value.(*hujson.Object)}}
	for _, key := range path {
		cur := levels[len(levels)-1]
		i, err := find(cur.obj, key)
		if err != nil || i < 0 {
			return levels, err
		}
		m := &cur.obj.Members[i]
		child, ok := m.Value.Value.(*hujson.Object)
		if !ok {
			return nil, errNotObject{key}
		}
		ind, ok := lineIndent(m.Name.BeforeExtra)
		if !ok {
			ind = cur.indent
		}
		levels = append(levels, level{obj: child, indent: ind})
	}
	return levels, nil
}

// render lays value out as the file would: indented from ind with the
// file's unit and line endings, or on one line for a one-line object.
func (d *jsonDoc) render(value any, ind string, oneLine bool) hujson.ValueTrimmed {
	b, _ := plainjson.Marshal(value)
	if !oneLine {
		var out bytes.Buffer
		json.Indent(&out, b, ind, d.unit)
		b = bytes.ReplaceAll(out.Bytes(), []byte("\n"), []byte(d.nl))
	}
	v, err := hujson.Parse(b)
	if err != nil {
		panic(err) // we marshalled it ourselves
	}
	return v.Value
}

// oneLine lays value out on one line, with hujson's spacing (`["a", "b"]`)
// when the user's value had spaces after commas, else compact.
func (d *jsonDoc) oneLine(value any, spaced bool) hujson.ValueTrimmed {
	b, _ := plainjson.Marshal(value)
	if f, err := hujson.Format(b); err == nil && spaced && !bytes.Contains(bytes.TrimSpace(f), []byte("\n")) {
		b = bytes.TrimSpace(f)
	}
	v, _ := hujson.Parse(b)
	return v.Value
}

// oneLine reports whether obj is written on a single line.
func oneLine(obj *hujson.Object) bool {
	if len(obj.Members) == 0 {
		return false // `{}`: grow it into lines like a new file
	}
	_, ok := lineIndent(obj.Members[0].Name.BeforeExtra)
	return !ok
}

// insert appends key: value to the object at lv, in its layout.
func (d *jsonDoc) insert(lv level, key string, value any) {
	obj := lv.obj
	name, _ := plainjson.Marshal(key)
	m := hujson.ObjectMember{Name: hujson.Value{Value: hujson.Literal(name)}}
	compact := oneLine(obj)
	sep := hujson.Extra(" ")
	ind := lv.indent + d.unit
	if n := len(obj.Members); n > 0 {
		last := &obj.Members[n-1]
		if ws := last.Value.BeforeExtra; len(bytes.Trim(ws, " \t")) == 0 {
			sep = slices.Clone(ws) // ": " or ":" as the file writes it
		}
		if i, ok := lineIndent(last.Name.BeforeExtra); ok {
			ind = i
		}
		if last.Value.AfterExtra != nil { // a trailing comma: keep the style
			m.Value.AfterExtra = hujson.Extra{}
		}
	}
	m.Value.BeforeExtra = sep
	m.Value.Value = d.render(value, ind, compact)
	switch {
	case compact:
		if len(obj.Members[0].Name.BeforeExtra) > 0 {
			m.Name.BeforeExtra = hujson.Extra(" ")
		}
	case len(obj.Members) == 0:
		var kept hujson.Extra // comments of an empty object stay
		if len(bytes.TrimSpace(obj.AfterExtra)) > 0 {
			kept = uptoLastLine(obj.AfterExtra)
		}
		m.Name.BeforeExtra = append(kept, d.nl+ind...)
		obj.AfterExtra = hujson.Extra(d.nl + lv.indent)
	default:
		// A comment on the last member's line stays on that line.
		after := obj.AfterExtra
		if nl := bytes.IndexByte(after, '\n'); nl >= 0 && len(bytes.TrimSpace(after[:nl])) > 0 {
			end := nl
			if end > 0 && after[end-1] == '\r' {
				end--
			}
			m.Name.BeforeExtra = append(slices.Clone(after[:end]), d.nl+ind...)
			obj.AfterExtra = slices.Clone(after[end:])
		} else {
			m.Name.BeforeExtra = hujson.Extra(d.nl + ind)
		}
	}
	obj.Members = append(obj.Members, m)
}

// jsonUpsert makes path.name hold entry: a new entry is written whole; in
// an existing one only the owned keys are set, so the user's own keys,
// comments and layout inside it stay.
func jsonUpsert(doc []byte, strict bool, path []string, name string, entry Object, owned []string) ([]byte, error) {
	d, err := parseJSONDoc(doc, strict)
	if err != nil {
		return nil, err
	}
	full := append(slices.Clone(path), name)
	levels, err := d.descend(full)
	if err != nil {
		return nil, err
	}
	if found := len(levels) - 1; found < len(full) {
		var value any = entry
		for i := len(full) - 1; i > found; i-- {
			value = Object{{full[i], value}}
		}
		d.insert(levels[found], full[found], value)
		return d.bytes(), nil
	}
	ours := levels[len(levels)-1]
	for _, key := range owned {
		want, _ := entry.get(key)
		i, err := find(ours.obj, key)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			d.insert(ours, key, want)
			continue
		}
		m := &ours.obj.Members[i]
		if sameJSON(m.Value.Pack(), want) {
			continue
		}
		// A value the user wrote on one line stays on one line.
		ind, ok := lineIndent(m.Name.BeforeExtra)
		old := hujson.Value{Value: m.Value.Value}.Pack()
		if !ok || !bytes.Contains(old, []byte("\n")) {
			m.Value.Value = d.oneLine(want, bytes.Contains(old, []byte(", ")))
			continue
		}
		m.Value.Value = d.render(want, ind, false)
	}
	return d.bytes(), nil
}

// jsonRemove deletes path.name and the comma that joined it.
func jsonRemove(doc []byte, strict bool, path []string, name string) ([]byte, bool, error) {
	d, err := parseJSONDoc(doc, strict)
	if err != nil {
		return nil, false, err
	}
	levels, err := d.descend(path)
	if err != nil || len(levels) <= len(path) {
		return doc, false, err
	}
	obj := levels[len(levels)-1].obj
	i, err := find(obj, name)
	if err != nil || i < 0 {
		return doc, false, err
	}
	last := i == len(obj.Members)-1
	trailing := obj.Members[i].Value.AfterExtra
	// Comments before our member are the user's: they stay where they were.
	keep := commentsIn(obj.Members[i].Name.BeforeExtra)
	obj.Members = slices.Delete(obj.Members, i, i+1)
	if last && len(obj.Members) > 0 { // the new last member takes over the trailing comma, or not
		obj.Members[len(obj.Members)-1].Value.AfterExtra = trailing
	}
	if keep != nil {
		if i < len(obj.Members) {
			next := &obj.Members[i].Name
			next.BeforeExtra = append(keep, next.BeforeExtra...)
		} else {
			obj.AfterExtra = append(keep, obj.AfterExtra...)
		}
	}
	if len(obj.Members) == 0 && len(bytes.TrimSpace(obj.AfterExtra)) == 0 {
		obj.AfterExtra = nil // `{}` again
	}
	return d.bytes(), true, nil
}

// commentsIn is extra without its trailing blanks when it holds a comment
// (nil otherwise). We never write comments, so any before our member is
// the user's: a remark on the previous line, one above our entry, or the
// comments of an object that was empty before we filled it.
func commentsIn(extra hujson.Extra) hujson.Extra {
	if len(bytes.TrimSpace(extra)) == 0 {
		return nil
	}
	return uptoLastLine(extra)
}

// uptoLastLine is extra without its last line break and the indentation
// after it (a line comment's own trailing blanks stay); extra on one line
// loses its trailing blanks.
func uptoLastLine(extra hujson.Extra) hujson.Extra {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return slices.Clone(bytes.TrimRight(extra, " \t"))
	}
	if i > 0 && extra[i-1] == '\r' {
		i--
	}
	return slices.Clone(extra[:i])
}

// jsonServers decodes every entry of the container at path.
func jsonServers(doc []byte, path []string) (map[string]map[string]any, error) {
	d, err := parseJSONDoc(doc, false)
	if err != nil {
		return nil, err
	}
	levels, err := d.descend(path)
	out := map[string]map[string]any{}
	if err != nil || len(levels) <= len(path) {
		return out, err
	}
	for _, m := range levels[len(levels)-1].obj.Members {
		if _, err := find(levels[len(levels)-1].obj, memberName(m)); err != nil {
			return nil, err
		}
		var v map[string]any
		if decodeJSONC(m.Value.Pack(), &v) == nil && v != nil {
			out[memberName(m)] = v
		}
	}
	return out, nil
}

// decodeJSONC unmarshals JSONC (comments and trailing commas stripped).
func decodeJSONC(b []byte, v any) error {
	std, err := hujson.Standardize(slices.Clone(b))
	if err != nil {
		return err
	}
	return json.Unmarshal(std, v)
}

// MarshalJSON writes the members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := plainjson.Marshal(m.Key)
		v, err := plainjson.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func sameJSON(raw []byte, value any) bool {
	want, err := plainjson.Marshal(value)
	if err != nil {
		return false
	}
	var a, b any
	if decodeJSONC(raw, &a) != nil || json.Unmarshal(want, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}
