package docsindex

import (
	"strings"
	"sync"
	"unicode"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// A token is a term and whether it is a code form (kept whole, not stemmed).
//
// Docs for developers are full of identifiers: LOAMS_API_KEY, stack_create,
// --wait-timeout, camelCase, 127.0.0.1:6333. Each is indexed whole (so an
// exact query ranks it first) and by its parts (so "api key" finds it).
func tokenize(text string) []string { return tokenizer{}.tokens(text) }

// tokenizer caches stems: a corpus repeats its words, and stemming is the
// costly step of building the index.
type tokenizer map[string]string

func (tk tokenizer) tokens(text string) []string {
	var out []string
	for _, raw := range rawWords(text) {
		trimmed := strings.Trim(raw, ".:-/_")
		if trimmed == "" {
			continue
		}
		if plainWord(trimmed) { // the common case: no parts to find
			if w := strings.ToLower(trimmed); !stopWords()[w] {
				out = append(out, tk.stem(w))
			}
			continue
		}
		whole := strings.ToLower(trimmed)
		parts := splitParts(trimmed)
		if len(parts) > 1 {
			out = append(out, whole) // the code form, unstemmed
		}
		if strings.Contains(whole, "/") {
			// A path's file and folder names are wholes of their own:
			// "~/.cursor/mcp.json" is found by "mcp.json".
			for _, seg := range strings.Split(whole, "/") {
				if seg = strings.Trim(seg, ".:-_~"); seg != "" && !plainWord(seg) && seg != whole {
					out = append(out, seg)
				}
			}
		}
		for _, p := range parts {
			p = strings.ToLower(p)
			if p == "" || stopWords()[p] {
				continue
			}
			out = append(out, tk.stem(p))
		}
	}
	return out
}

func (tk tokenizer) stem(w string) string {
	if tk == nil {
		return stem(w)
	}
	st, ok := tk[w]
	if !ok {
		st = stem(w)
		tk[w] = st
	}
	return st
}

// plainWord is ASCII letters and digits with no camelCase hump: a word
// with no parts ("The", "LOAMS", "port").
func plainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		upper := c >= 'A' && c <= 'Z'
		if !(upper || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
		if upper && i > 0 && w[i-1] >= 'a' && w[i-1] <= 'z' {
			return false
		}
	}
	return true
}

// rawWords splits on anything that cannot be part of an identifier, a
// flag, a path or an address.
func rawWords(text string) []string {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' || r == ':' || r == '/' ||
			r == '\'' || r == '’')
	})
	out := words[:0]
	for _, w := range words {
		if strings.ContainsAny(w, "'’") {
			w = uncontract(w)
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// uncontract reads an English contraction as the word it shortens:
// "don't" is "do", "won't" "will", "the stack's" "stack", "you're" "you".
// Split at the apostrophe instead, "don't" became "don" and "t", and a
// question saying "don't" matched every "won't" and "can't" in the guides
// by their "t". Quotes around a word ('refund') are not part of it.
func uncontract(w string) string {
	w = strings.Trim(strings.ReplaceAll(w, "’", "'"), "'")
	lower := strings.ToLower(w)
	if base, ok := strings.CutSuffix(lower, "n't"); ok {
		switch base {
		case "wo":
			return "will"
		case "ca":
			return "can"
		case "sha":
			return "shall"
		}
		return w[:len(base)]
	}
	if i := strings.LastIndexByte(w, '\''); i > 0 {
		switch lower[i+1:] {
		case "s", "re", "ll", "ve", "d", "m":
			return w[:i]
		}
	}
	return strings.ReplaceAll(w, "'", "")
}

// splitParts cuts an identifier at _ - : / and at camelCase humps; dots
// split words but not numbers (127.0.0.1 stays whole).
func splitParts(word string) []string {
	var parts []string
	var cur []rune
	rs := []rune(word)
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, string(cur))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ':' || r == '/':
			flush()
		case r == '.':
			if i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]) {
				cur = append(cur, r)
			} else {
				flush()
			}
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return parts
}

// stem is the Snowball English stemmer, the one bleve's English analyzer
// uses too, so the benchmark compares ranking rather than stemmers.
func stem(word string) string {
	if len(word) < 3 || unicode.IsDigit(rune(word[0])) {
		return word
	}
	env := snowballstem.NewEnv(word)
	english.Stem(env)
	return env.Current()
}

// stopWords are dropped from text and queries: they carry no meaning here.
// Number words too: "three stacks" asks about stacks, and a heading's "in
// three commands" must not answer it; digits (401, 9200) stay words.
// The set is made on first use, not at every process start.
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for from has have how i if in into is it its
		of on or so such that the their then there these they this to was we what when where which while who
		will with you your can do does my me our
		one two three four five six seven eight nine ten`) {
		m[w] = true
	}
	return m
})
