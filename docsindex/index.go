package docsindex

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// BM25F parameters. The title path counts three times the body: a section
// titled "Ports" is about ports even when its body says so once.
const (
	k1            = 1.2
	bTitle        = 0.3
	bBody         = 0.75
	titleWeight   = 3.0
	phraseBoost   = 1.5
	prefixScale   = 0.4 // a prefix match counts less than the word itself
	snippetWeight = 0.5
	titleBoost    = 1.5
)

// Index is an in-memory BM25F index over sections: postings per term with
// the term's frequency in each field.
//
// The vocabulary is a sorted slice with the postings beside it, not a map:
// the prebuilt index of the embedded bundle (prebuilt.go) is loaded by
// slicing one string, with no hashing of thousands of terms at start.
type Index struct {
	docs     []doc
	terms    []string    // sorted vocabulary, for lookups and prefix matches
	postings [][]posting // postings[i] are terms[i]'s
	avgTitle float64
	avgBody  float64
}

type doc struct {
	sec       Section
	titleLen  int
	bodyLen   int
	lowerText string // title path and body, lower case, for phrase matches
}

type posting struct {
	doc         int32
	title, body uint16
}

// Build indexes sections; it is cheap enough to run on first search.
func Build(sections []Section) *Index {
	ix := &Index{}
	postings := map[string][]posting{}
	var sumTitle, sumBody int
	tk := tokenizer{}
	for i, s := range sections {
		title := strings.Join(s.TitlePath, " ")
		tt, bt := tk.tokens(title), tk.tokens(s.Body)
		counts := map[string]*posting{}
		for _, t := range tt {
			if counts[t] == nil {
				counts[t] = &posting{doc: int32(i)}
			}
			counts[t].title++
		}
		for _, t := range bt {
			if counts[t] == nil {
				counts[t] = &posting{doc: int32(i)}
			}
			counts[t].body++
		}
		for t, p := range counts {
			postings[t] = append(postings[t], *p)
		}
		ix.docs = append(ix.docs, doc{sec: s, titleLen: len(tt), bodyLen: len(bt), lowerText: strings.ToLower(title + "\n" + s.Body)})
		sumTitle += len(tt)
		sumBody += len(bt)
	}
	if n := float64(len(sections)); n > 0 {
		ix.avgTitle, ix.avgBody = float64(sumTitle)/n, float64(sumBody)/n
	}
	for t := range postings {
		ix.terms = append(ix.terms, t)
	}
	sort.Strings(ix.terms)
	ix.postings = make([][]posting, len(ix.terms))
	for i, t := range ix.terms {
		ix.postings[i] = postings[t]
	}
	return ix
}

// lookup returns a term's postings, nil when the docs never use it.
func (ix *Index) lookup(term string) []posting {
	if i, ok := slices.BinarySearch(ix.terms, term); ok {
		return ix.postings[i]
	}
	return nil
}

// Hit is one scored section.
type Hit struct {
	Section Section
	Score   float64
	Terms   []string // query words that matched, for the excerpt
}

// Search ranks sections for query; no match is an empty list.
func (ix *Index) Search(query string, limit int) []Hit {
	qterms := uniq(tokenize(query))
	if len(qterms) == 0 || len(ix.docs) == 0 {
		return nil
	}
	scores := map[int32]float64{}
	matched := map[int32]int{}
	inTitle := map[int32]int{} // query words found in the section's title path
	for _, qt := range qterms {
		expansions := map[string]float64{qt: 1}
		if ix.lookup(qt) == nil { // a word the docs never use may be the start of one they do
			for _, t := range ix.withPrefix(qt) {
				if t != qt {
					expansions[t] = max(expansions[t], prefixScale)
				}
			}
		}
		seen := map[int32]bool{}
		for term, scale := range expansions {
			ps := ix.lookup(term)
			idf := math.Log(1 + (float64(len(ix.docs))-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
			for _, p := range ps {
				d := ix.docs[p.doc]
				tf := titleWeight*float64(p.title)/(1-bTitle+bTitle*float64(d.titleLen)/ix.avgTitle) +
					float64(p.body)/(1-bBody+bBody*float64(d.bodyLen)/max(ix.avgBody, 1))
				scores[p.doc] += scale * idf * tf / (k1 + tf)
				if !seen[p.doc] {
					seen[p.doc] = true
					matched[p.doc]++
					if p.title > 0 && scale == 1 {
						inTitle[p.doc]++
					}
				}
			}
		}
	}
	phrase := strings.ToLower(strings.Join(strings.Fields(query), " "))
	hits := make([]Hit, 0, len(scores))
	for i, s := range scores {
		d := ix.docs[i]
		// Sections that match every query word beat those that match one
		// word many times; an exact phrase beats both.
		s *= float64(matched[i]) / float64(len(qterms))
		if inTitle[i] == len(qterms) {
			s *= titleBoost // the heading says it all: "Port already in use"
		}
		if len(strings.Fields(phrase)) > 1 && strings.Contains(d.lowerText, phrase) {
			s *= phraseBoost
		}
		if strings.HasPrefix(d.sec.Path, "snippets/") {
			s *= snippetWeight // code answers "how", the guides answer "what"; get_sdk_snippet serves code
		}
		hits = append(hits, Hit{Section: d.sec, Score: s})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Section.Path+a.Section.Anchor, b.Section.Path+b.Section.Anchor)
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	words := strings.Fields(query)
	for i := range hits {
		hits[i].Terms = words
	}
	return hits
}

// withPrefix lists vocabulary terms starting with p (at most a few dozen).
func (ix *Index) withPrefix(p string) []string {
	if len(p) < 3 {
		return nil
	}
	i := sort.SearchStrings(ix.terms, p)
	var out []string
	for ; i < len(ix.terms) && strings.HasPrefix(ix.terms[i], p) && len(out) < 32; i++ {
		out = append(out, ix.terms[i])
	}
	return out
}

func uniq(ts []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
