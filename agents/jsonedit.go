package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// This file edits one member of one object in a JSON document, leaving every
// other byte as it was: the agents' config files belong to the user (key
// order, indentation, other servers and keys we do not know must survive).

// jsonMember is one "key": value pair and where it sits in the document.
type jsonMember struct {
	key              string
	keyStart, keyEnd int // the quoted key, [start, end)
	valStart, valEnd int
}

// jsonObject is an object's braces and members.
type jsonObject struct {
	open, close int // offsets of '{' and '}'
	members     []jsonMember
}

func (o jsonObject) find(key string) int {
	for i, m := range o.members {
		if m.key == key {
			return i
		}
	}
	return -1
}

// kv is one key/value of an ordered JSON object (our entries keep the key
// order the agents' docs show).
type kv struct {
	Key   string
	Value any
}

// ordered marshals as an object with its keys in order.
type ordered []kv

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(p.Key)
		v, err := marshal(p.Value)
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

// marshal is json.Marshal without HTML escaping (paths may hold & or <).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func render(v any, prefix, unit string, compact bool) []byte {
	b, _ := marshal(v)
	if compact {
		return b
	}
	var out bytes.Buffer
	json.Indent(&out, b, prefix, unit)
	return out.Bytes()
}

// errNotObject says where the document stops looking like a config file.
type errNotObject struct{ what string }

func (e errNotObject) Error() string { return e.what + " is not a JSON object" }

// parseJSONObject reads the object starting at b[i] == '{'. The document
// has passed json.Valid, so the scanner can be simple.
func parseJSONObject(b []byte, i int) (jsonObject, error) {
	o := jsonObject{open: i}
	i++
	for {
		i = skipSpace(b, i)
		if b[i] == '}' {
			o.close = i
			return o, nil
		}
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		m := jsonMember{keyStart: i}
		m.keyEnd = skipString(b, i)
		if err := json.Unmarshal(b[m.keyStart:m.keyEnd], &m.key); err != nil {
			return o, err
		}
		i = skipSpace(b, m.keyEnd)
		i = skipSpace(b, i+1) // the ':'
		m.valStart = i
		m.valEnd = skipValue(b, i)
		o.members = append(o.members, m)
		i = m.valEnd
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = skipString(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[j])) {
		j++
	}
	return j
}

// lineIndent is the leading whitespace of the line holding offset i.
func lineIndent(b []byte, i int) string {
	start := bytes.LastIndexByte(b[:i], '\n') + 1
	j := start
	for j < i && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	return string(b[start:j])
}

// indentUnit guesses one level of indentation from the root's first member.
func indentUnit(b []byte, root jsonObject) string {
	if len(root.members) > 0 && bytes.IndexByte(b[root.open:root.members[0].keyStart], '\n') >= 0 {
		if u := lineIndent(b, root.members[0].keyStart); u != "" {
			return u
		}
	}
	return "  "
}

// jsonRoot parses doc's top-level object; an empty document is an empty object.
func jsonRoot(doc []byte) ([]byte, jsonObject, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}\n")
	}
	if !json.Valid(doc) {
		var v any
		err := json.Unmarshal(doc, &v)
		return nil, jsonObject{}, fmt.Errorf("not valid JSON: %v", err)
	}
	i := skipSpace(doc, 0)
	if doc[i] != '{' {
		return nil, jsonObject{}, errNotObject{"the document"}
	}
	root, err := parseJSONObject(doc, i)
	return doc, root, err
}

// jsonGet returns the raw value of container.name, if present.
func jsonGet(doc []byte, container, name string) (json.RawMessage, bool, error) {
	doc, root, err := jsonRoot(doc)
	if err != nil {
		return nil, false, err
	}
	ci := root.find(container)
	if ci < 0 {
		return nil, false, nil
	}
	c := root.members[ci]
	if doc[c.valStart] != '{' {
		return nil, false, errNotObject{container}
	}
	obj, err := parseJSONObject(doc, c.valStart)
	if err != nil {
		return nil, false, err
	}
	if mi := obj.find(name); mi >= 0 {
		return json.RawMessage(doc[obj.members[mi].valStart:obj.members[mi].valEnd]), true, nil
	}
	return nil, false, nil
}

// jsonSet sets container.name to value, touching only that member's bytes
// (or inserting it, or the container, after the last member).
func jsonSet(doc []byte, container, name string, value any) ([]byte, error) {
	doc, root, err := jsonRoot(doc)
	if err != nil {
		return nil, err
	}
	unit := indentUnit(doc, root)
	ci := root.find(container)
	if ci < 0 {
		return setMember(doc, root, container, ordered{{name, value}}, unit), nil
	}
	c := root.members[ci]
	if doc[c.valStart] != '{' {
		return nil, errNotObject{container}
	}
	obj, err := parseJSONObject(doc, c.valStart)
	if err != nil {
		return nil, err
	}
	return setMember(doc, obj, name, value, unit), nil
}

func setMember(doc []byte, obj jsonObject, key string, value any, unit string) []byte {
	splice := func(start, end int, with []byte) []byte {
		out := append([]byte{}, doc[:start]...)
		out = append(out, with...)
		return append(out, doc[end:]...)
	}
	multiline := bytes.IndexByte(doc[obj.open:obj.close], '\n') >= 0
	qkey, _ := marshal(key)
	if i := obj.find(key); i >= 0 {
		m := obj.members[i]
		if sameJSON(doc[m.valStart:m.valEnd], value) {
			return doc
		}
		return splice(m.valStart, m.valEnd, render(value, lineIndent(doc, m.keyStart), unit, !multiline))
	}
	if n := len(obj.members); n > 0 {
		last := obj.members[n-1]
		sep := doc[last.keyEnd:last.valStart] // ": " or ":" as the file writes it
		var ins []byte
		if multiline {
			ind := lineIndent(doc, last.keyStart)
			ins = append([]byte(",\n"+ind), qkey...)
			ins = append(append(ins, sep...), render(value, ind, unit, false)...)
		} else {
			comma := ","
			if obj.members[0].keyStart > obj.open+1 {
				comma = ", "
			}
			ins = append(append([]byte(comma), qkey...), sep...)
			ins = append(ins, render(value, "", "", true)...)
		}
		return splice(last.valEnd, last.valEnd, ins)
	}
	ind := lineIndent(doc, obj.open)
	ins := append([]byte("\n"+ind+unit), qkey...)
	ins = append(append(ins, ": "...), render(value, ind+unit, unit, false)...)
	ins = append(ins, "\n"+ind...)
	return splice(obj.open+1, obj.close, ins)
}

// jsonRemove deletes container.name and the comma that joined it.
func jsonRemove(doc []byte, container, name string) ([]byte, bool, error) {
	doc, root, err := jsonRoot(doc)
	if err != nil {
		return nil, false, err
	}
	ci := root.find(container)
	if ci < 0 {
		return doc, false, nil
	}
	c := root.members[ci]
	if doc[c.valStart] != '{' {
		return nil, false, errNotObject{container}
	}
	obj, err := parseJSONObject(doc, c.valStart)
	if err != nil {
		return nil, false, err
	}
	i := obj.find(name)
	if i < 0 {
		return doc, false, nil
	}
	var start, end int
	switch {
	case i+1 < len(obj.members): // up to the next key: its indentation stays
		start, end = obj.members[i].keyStart, obj.members[i+1].keyStart
	case i > 0: // the last one: from the end of the previous value
		start, end = obj.members[i-1].valEnd, obj.members[i].valEnd
	default:
		start, end = obj.open+1, obj.close
	}
	out := append(append([]byte{}, doc[:start]...), doc[end:]...)
	return out, true, nil
}

func sameJSON(raw []byte, value any) bool {
	want, err := marshal(value)
	if err != nil {
		return false
	}
	var a, b any
	if json.Unmarshal(raw, &a) != nil || json.Unmarshal(want, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}
