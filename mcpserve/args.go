package mcpserve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/plainjson"
	"loams.dev/cli/mcpserve/front"
)

// ignoredKey names, in a result's _meta, the arguments a call carried
// that the tool does not take (Gemini CLI adds wait_for_previous to every
// call): they are ignored, never a failure.
const ignoredKey = "loams/ignored_arguments"

// argSchema is a tool's input schema as the decoder uses it. The published
// schema allows extra properties (hosts check it before sending); the
// decoder is liberal in what it takes: it drops unknown arguments and
// converts exact strings before checking, but refuses a name that differs
// from a real one only by case.
type argSchema struct {
	root     *jsonschema.Resolved
	props    map[string]*jsonschema.Schema
	each     map[string]*jsonschema.Resolved // each property alone, so a failure names its field
	required []string
}

func newArgSchema(s *jsonschema.Schema) (argSchema, error) {
	a := argSchema{props: s.Properties, each: map[string]*jsonschema.Resolved{}, required: s.Required}
	var err error
	if a.root, err = s.Resolve(nil); err != nil {
		return a, err
	}
	for name, p := range s.Properties {
		if a.each[name], err = p.Resolve(nil); err != nil {
			return a, err
		}
	}
	return a, nil
}

// decodeArgs checks raw arguments and decodes them into In. It returns the
// names of the arguments it ignored; a failure is a usage error that names
// the field in plain words and echoes at most 200 characters of the value.
func decodeArgs[In any](raw json.RawMessage, a argSchema) (In, []string, error) {
	var in In
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var args map[string]any
	if raw[0] != '{' || json.Unmarshal(raw, &args) != nil {
		return in, nil, errs.New(errs.Usage, "pass the arguments as a JSON object", "the arguments must be a JSON object, not %s", echo(raw))
	}
	var ignored []string
	for name, v := range args {
		p, known := a.props[name]
		if !known {
			if real := a.sameButCase(name); real != "" {
				// "Storage" is a typo of storage, not a host's own argument:
				// dropping it would report success for a call that did not
				// do what was asked.
				return in, nil, errs.New(errs.Usage, "rename "+front.Clip(name, 100)+" to "+real,
					"unknown argument %q: argument names are case-sensitive; did you mean %q?", front.Clip(name, 100), real).With("field", real)
			}
			ignored = append(ignored, front.Clip(name, 100))
			delete(args, name)
			continue
		}
		args[name] = convert(v, p)
	}
	slices.Sort(ignored)
	if len(ignored) > 20 {
		ignored = append(ignored[:20], "…")
	}
	for _, name := range a.required {
		if _, ok := args[name]; !ok {
			return in, ignored, errs.New(errs.Usage, "add "+name, "%s is required: %s", name, a.props[name].Description)
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := a.each[name].Validate(args[name]); err != nil {
			return in, ignored, errs.New(errs.Usage, "fix "+name+" (tools/list has the schema)",
				"%s (got %s)", describe(name, a.props[name]), echo(args[name])).With("field", name)
		}
	}
	if err := a.root.ApplyDefaults(&args); err != nil {
		return in, ignored, errs.New(errs.Usage, "check the tool's input schema in tools/list", "the arguments do not fit the tool's schema")
	}
	if err := a.root.Validate(args); err != nil {
		return in, ignored, errs.New(errs.Usage, "check the tool's input schema in tools/list", "the arguments do not fit the tool's schema")
	}
	data, _ := json.Marshal(args)
	if err := json.Unmarshal(data, &in); err != nil {
		return in, ignored, errs.New(errs.Usage, "check the tool's input schema in tools/list", "the arguments do not fit the tool's schema")
	}
	return in, ignored, nil
}

// sameButCase is the property name differs from only by case, or "".
func (a argSchema) sameButCase(name string) string {
	for p := range a.props {
		if strings.EqualFold(p, name) {
			return p
		}
	}
	return ""
}

// convert turns a string into the number or boolean the schema wants when
// it converts exactly ("3" → 3, "true" → true); anything else is left for
// the check to name.
func convert(v any, p *jsonschema.Schema) any {
	s, isString := v.(string)
	if !isString {
		return v
	}
	switch typeOf(p) {
	case "integer":
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.FormatInt(n, 10) == s {
			return n
		}
	case "number":
		if f, err := strconv.ParseFloat(s, 64); err == nil && strings.TrimSpace(s) == s {
			return f
		}
	case "boolean":
		if s == "true" || s == "false" {
			return s == "true"
		}
	}
	return v
}

// typeOf is the schema's one non-null type ("" when it has none or many).
func typeOf(p *jsonschema.Schema) string {
	if p.Type != "" {
		return p.Type
	}
	var t string
	for _, x := range p.Types {
		if x != "null" {
			if t != "" {
				return ""
			}
			t = x
		}
	}
	return t
}

// describe says what a field takes, in the words of its schema:
// "limit must be a whole number from 1 to 20".
func describe(name string, p *jsonschema.Schema) string {
	switch typeOf(p) {
	case "integer":
		return name + " must be a whole number" + bounds(p.Minimum, p.Maximum)
	case "number":
		return name + " must be a number" + bounds(p.Minimum, p.Maximum)
	case "boolean":
		return name + " must be true or false"
	case "array":
		if p.Items != nil && len(p.Items.Enum) > 0 {
			return name + " must be a list of: " + enumWords(p.Items.Enum)
		}
		return name + " must be a list"
	case "string":
		if len(p.Enum) > 0 {
			return name + " must be one of: " + enumWords(p.Enum)
		}
		msg := name + " must be a string"
		switch {
		case p.MinLength != nil && p.MaxLength != nil:
			msg += fmt.Sprintf(" of %d to %d characters", *p.MinLength, *p.MaxLength)
		case p.MaxLength != nil:
			msg += fmt.Sprintf(" of at most %d characters", *p.MaxLength)
		}
		if p.Pattern != "" {
			msg += " matching " + p.Pattern
		}
		return msg
	}
	return name + " is not valid"
}

func bounds(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf(" from %g to %g", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf(" of at least %g", *lo)
	case hi != nil:
		return fmt.Sprintf(" of at most %g", *hi)
	}
	return ""
}

func enumWords(values []any) string {
	words := make([]string, len(values))
	for i, v := range values {
		words[i] = fmt.Sprint(v)
	}
	return front.Clip(strings.Join(words, ", "), 300)
}

// echo shows a bad value, cut to 200 characters: no input can make an
// error large.
func echo(v any) string {
	var data []byte
	if raw, ok := v.(json.RawMessage); ok {
		data = raw
	} else {
		data, _ = plainjson.Marshal(v)
	}
	return front.Clip(string(data), 200)
}
