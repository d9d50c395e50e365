package docsindex

import (
	"strings"
	"unicode"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// A token is a term and whether it is a code form (kept whole, not stemmed).
//
// Docs for developers are full of identifiers: LOAMS_API_KEY, stack_create,
// --wait-timeout, camelCase, 127.0.0.1:6333. Each is indexed whole (so an
// exact query ranks it first) and by its parts (so "api key" finds it).
func tokenize(text string) []string {
	var out []string
	for _, raw := range rawWords(text) {
		whole := strings.ToLower(strings.Trim(raw, ".:-/_"))
		if whole == "" {
			continue
		}
		parts := splitParts(strings.Trim(raw, ".:-/_"))
		if len(parts) > 1 {
			out = append(out, whole) // the code form, unstemmed
		}
		for _, p := range parts {
			p = strings.ToLower(p)
			if p == "" || stopWords[p] {
				continue
			}
			out = append(out, stem(p))
		}
	}
	return out
}

// rawWords splits on anything that cannot be part of an identifier, a
// flag, a path or an address.
func rawWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' || r == ':' || r == '/')
	})
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
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for from has have how i if in into is it its
		of on or so such that the their then there these they this to was we what when where which while who
		will with you your can do does my me our`) {
		m[w] = true
	}
	return m
}()
