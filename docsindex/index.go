package docsindex

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// phraseCandidates is how many leading sections the phrase boosts look at.
const phraseCandidates = 60

// wordPairs are the query's adjacent words, both outside the stop words:
// "my app gets connection refused" → "app gets", "gets connection",
// "connection refused".
func wordPairs(phrase string) []string {
	words := strings.Fields(phrase)
	var out []string
	for i := 1; i < len(words); i++ {
		if !stopWords()[words[i-1]] && !stopWords()[words[i]] {
			out = append(out, words[i-1]+" "+words[i])
		}
	}
	return out
}

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
	avgAsks  float64 // over the sections that have asks

	headingsOnce sync.Once
	headings     [][]string // each section's own heading, tokenized on first search
	headingIDF   []float64  // the sum of its words' idf: what a query covering all of it has

	facetsOnce sync.Once
	facets     []facets // each section's engine and code languages (intent.go), on first search

	tuning *Tuning // nil: DefaultTuning (tuning.go)
}

// sectionFacets are each section's facets, made on first search.
func (ix *Index) sectionFacets() []facets {
	ix.facetsOnce.Do(func() {
		ix.facets = make([]facets, len(ix.docs))
		for i, d := range ix.docs {
			ix.facets[i] = facetsOf(d.sec)
		}
	})
	return ix.facets
}

// headingTerms is each section's own heading (the last of its title path)
// as terms: the title path is one field, shared by every section of a
// page, so this tells "Ports" from the page it is on.
func (ix *Index) headingTerms() [][]string {
	ix.headingsOnce.Do(func() {
		tk := tokenizer{}
		ix.headings = make([][]string, len(ix.docs))
		ix.headingIDF = make([]float64, len(ix.docs))
		for i, d := range ix.docs {
			// A snippet's heading is made of its engine, language and task:
			// it would match every "connect … from python" whole.
			if tp := d.sec.TitlePath; len(tp) > 0 && !strings.HasPrefix(d.sec.Path, "snippets/") {
				ix.headings[i] = slices.DeleteFunc(uniq(tk.tokens(tp[len(tp)-1])), func(t string) bool { return lightVerbs()[t] })
				for _, t := range ix.headings[i] {
					ix.headingIDF[i] += ix.idf(len(ix.lookup(t)))
				}
			}
		}
	})
	return ix.headings
}

type doc struct {
	sec       Section
	titleLen  int
	bodyLen   int
	asksLen   int
	lowerText string // title path, body and asks, lower case, for phrase matches
}

type posting struct {
	doc               int32
	title, body, asks uint16
}

// Build indexes sections; it is cheap enough to run on first search.
func Build(sections []Section) *Index {
	ix := &Index{}
	postings := map[string][]posting{}
	var sumTitle, sumBody, sumAsks, withAsks int
	tk := tokenizer{}
	for i, s := range sections {
		title := strings.Join(s.TitlePath, " ")
		tt, bt, at := tk.tokens(title), tk.tokens(s.Body), tk.tokens(s.Asks)
		if lead := leadOf(s); lead != "" {
			bt = append(bt, tk.tokens(lead)...) // the lead counts twice
		}
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
		for _, t := range at {
			if counts[t] == nil {
				counts[t] = &posting{doc: int32(i)}
			}
			counts[t].asks++
		}
		for t, p := range counts {
			postings[t] = append(postings[t], *p)
		}
		ix.docs = append(ix.docs, doc{sec: s, titleLen: len(tt), bodyLen: len(bt), asksLen: len(at),
			lowerText: strings.ToLower(title + "\n" + s.Body + "\n" + s.Asks)})
		sumTitle += len(tt)
		sumBody += len(bt)
		if len(at) > 0 {
			sumAsks += len(at)
			withAsks++
		}
	}
	if n := float64(len(sections)); n > 0 {
		ix.avgTitle, ix.avgBody = float64(sumTitle)/n, float64(sumBody)/n
	}
	if withAsks > 0 {
		ix.avgAsks = float64(sumAsks) / float64(withAsks)
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

// idf is a term's inverse document frequency, from its postings' count.
func (ix *Index) idf(n int) float64 {
	return math.Log(1 + (float64(len(ix.docs))-float64(n)+0.5)/(float64(n)+0.5))
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
	if topical := slices.DeleteFunc(slices.Clone(qterms), func(t string) bool { return questionWords()[t] }); len(topical) > 0 {
		qterms = topical
	}
	if len(qterms) == 0 || len(ix.docs) == 0 {
		return nil
	}
	tn := ix.tune()
	scores := map[int32]float64{}
	matched := map[int32]float64{} // the idf-weighted share of the query's words each section has
	inHeading := map[int32]float64{}
	headings := ix.headingTerms()
	var weightSum float64
	inTitle := map[int32]int{} // query words found in the section's title path
	for _, qt := range qterms {
		expansions := map[string]float64{qt: 1}
		for _, syn := range querySynonyms()[qt] {
			expansions[syn] = max(expansions[syn], tn.SynonymScale)
		}
		if ix.lookup(qt) == nil { // a word the docs never use may be the start of one they do
			for _, t := range ix.withPrefix(qt) {
				if t != qt {
					expansions[t] = max(expansions[t], tn.PrefixScale)
				}
			}
		}
		seen := map[int32]bool{}
		// A word counts toward "has every word" by how rare it is: missing
		// "app" or "need" costs little, missing "qdrant" much; a word no
		// section has (nor a synonym or prefix of it) costs nothing.
		weight := 0.0
		for term := range expansions {
			if ps := ix.lookup(term); len(ps) > 0 {
				weight = max(weight, math.Log(1+(float64(len(ix.docs))-float64(len(ps))+0.5)/(float64(len(ps))+0.5)))
			}
		}
		if !ix.inAnyTitle(expansions) {
			// A word no heading of the docs uses ("several", "configured")
			// is the asker's prose, not a topic of the docs: a section
			// that happens to use it too is not for that the answer.
			weight *= tn.UntitledWeight
		}
		weightSum += weight
		// In a fixed order: float sums in map order would tie-break
		// near-equal sections differently from run to run.
		terms := make([]string, 0, len(expansions))
		for t := range expansions {
			terms = append(terms, t)
		}
		slices.Sort(terms)
		for _, term := range terms {
			scale := expansions[term]
			ps := ix.lookup(term)
			idf := math.Log(1 + (float64(len(ix.docs))-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
			for _, p := range ps {
				d := ix.docs[p.doc]
				tf := tn.TitleWeight*float64(p.title)/(1-tn.BTitle+tn.BTitle*float64(d.titleLen)/ix.avgTitle) +
					float64(p.body)/(1-tn.BBody+tn.BBody*float64(d.bodyLen)/max(ix.avgBody, 1))
				if p.asks > 0 {
					tf += tn.AsksWeight * float64(p.asks) / (1 - tn.BAsks + tn.BAsks*float64(d.asksLen)/max(ix.avgAsks, 1))
				}
				scores[p.doc] += scale * idf * tf / (tn.K1 + tf)
				if !seen[p.doc] {
					seen[p.doc] = true
					matched[p.doc] += weight
					if p.title > 0 && slices.ContainsFunc(headings[p.doc], func(h string) bool { _, ok := expansions[h]; return ok }) {
						inHeading[p.doc] += weight
					}
					if p.title > 0 && scale == 1 {
						inTitle[p.doc]++
					}
				}
			}
		}
	}
	phrase := strings.ToLower(strings.Join(strings.Fields(query), " "))
	pairs := wordPairs(phrase)
	asked := intentOf(query)
	sectionFacets := ix.sectionFacets()
	type scored struct {
		doc   int32
		score float64
	}
	ranked := make([]scored, 0, len(scores))
	for i, s := range scores {
		d := ix.docs[i]
		// Sections that match every query word beat those that match one
		// word many times; an exact phrase beats both (below).
		s *= matched[i] / weightSum
		s *= 1 + tn.HeadingBonus*inHeading[i]/weightSum // the section's own heading names what was asked
		if hw := ix.headingIDF[i]; hw > 0 && inHeading[i] > 0 {
			// How much of its own heading the query covers, by rarity:
			// "Ports" is all about ports, "Keep a stack running" is not about
			// keeping (a common word) as much as about running a stack.
			s *= 1 + tn.HeadingCover*min(inHeading[i]/hw, 1)
		}
		if inTitle[i] == len(qterms) {
			s *= tn.TitleBoost // the heading says it all: "Port already in use"
		}
		if len(d.sec.TitlePath) == 1 && !strings.HasPrefix(d.sec.Path, "snippets/") {
			s *= tn.IntroWeight // a page's opening paragraph names its topics; its sections answer them
		}
		if strings.HasPrefix(d.sec.Path, "guides/reference/") {
			s *= tn.ReferenceWeight // a reference entry's example line must not outrank the guide that teaches it
		}
		if strings.HasPrefix(d.sec.Path, "snippets/") {
			s *= tn.SnippetWeight // code answers "how", the guides answer "what"; get_sdk_snippet serves code
		}
		s *= asked.weight(sectionFacets[i], tn)
		ranked = append(ranked, scored{i, s})
	}
	byScore := func(a, b scored) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		da, db := ix.docs[a.doc].sec, ix.docs[b.doc].sec
		return strings.Compare(da.Path+da.Anchor, db.Path+db.Anchor)
	}
	slices.SortFunc(ranked, byScore)
	// Phrases are looked for in the leading candidates only: scanning the
	// text of every section that shares a word is most of a query's time
	// on a large corpus, and a boost cannot lift a section from far below.
	lead := ranked[:min(len(ranked), max(4*limit, phraseCandidates))]
	for k := range lead {
		text := ix.docs[lead[k].doc].lowerText
		if len(strings.Fields(phrase)) > 1 && strings.Contains(text, phrase) {
			lead[k].score *= tn.PhraseBoost
		}
		for _, p := range pairs {
			if strings.Contains(text, p) {
				lead[k].score *= tn.PairBoost // "connection refused", "api key": two words as the docs put them
			}
		}
	}
	slices.SortFunc(lead, byScore)
	hits := make([]Hit, 0, len(lead))
	for _, r := range lead {
		hits = append(hits, Hit{Section: ix.docs[r.doc].sec, Score: r.score})
	}
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

// inAnyTitle tells whether any section's title path uses one of terms.
func (ix *Index) inAnyTitle(terms map[string]float64) bool {
	for t := range terms {
		for _, p := range ix.lookup(t) {
			if p.title > 0 {
				return true
			}
		}
	}
	return false
}

// leadOf is a guide section's lead: its first sentence, up to a code
// block, a table or a list. Each guide section opens on what a reader
// would be trying to do when it is the answer, in the reader's words (the
// task, the symptom, the engine or tool); a word there says more about the
// section than the same word further down, so the lead counts twice in
// the body. Snippets have no lead: they are code.
func leadOf(s Section) string {
	if !strings.HasPrefix(s.Path, "guides/") {
		return ""
	}
	var lead []string
	for _, line := range strings.Split(s.Body, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "#") {
			break
		}
		lead = append(lead, t)
	}
	text := strings.Join(lead, " ")
	if i := strings.Index(text, ". "); i >= 0 {
		text = text[:i+1]
	}
	return text
}
