package docsindex

// Tuning is every weight of the ranking, in one place. The shipped binary
// uses DefaultTuning; bench/search sets others (Index.Tune) to fit them on
// the labelled question sets and to validate the fit on sets left out
// (bench/search/HISTORY.md, which also has what other values of each did,
// and why today's stay). Nothing else sets them.
type Tuning struct {
	// BM25F, per field: K1 is how fast a word's repeats stop adding; the
	// B* how much a long field is discounted (0 none, 1 fully).
	K1, BTitle, BBody, BAsks float64
	// TitleWeight is a word of the title path beside one of the body: a
	// section titled "Ports" is about ports even when its body says so once.
	TitleWeight float64
	// AsksWeight is a word of a section's asks comment (asks.go) beside
	// one of its body. Being there at all already counts toward "has every
	// word".
	AsksWeight float64
	// UntitledWeight is what a query word that no title path uses counts
	// toward "has every word", beside a word that names a topic somewhere:
	// "several", "configured" are the asker's prose, not a topic.
	UntitledWeight float64
	// PrefixScale is what a word of the docs that starts with a query word
	// the docs never use counts; SynonymScale what a synonym (synonyms.go)
	// counts; both beside the word itself.
	PrefixScale, SynonymScale float64
	// HeadingBonus is for the query words in the section's own heading
	// (not the page's); HeadingCover for how much of that heading the
	// query covers, by rarity; TitleBoost when the title path has every
	// query word ("Port already in use").
	HeadingBonus, HeadingCover, TitleBoost float64
	// PhraseBoost is for the query found whole in a section; PairBoost for
	// each pair of adjacent query words found as the docs put them
	// ("connection refused").
	PhraseBoost, PairBoost float64
	// IntroWeight is a page's opening paragraph: it names the page's
	// topics, its sections answer them.
	IntroWeight float64
	// ReferenceWeight is the CLI reference: it names every command and
	// flag, so it matches most questions a little; the guides answer them.
	ReferenceWeight float64
	// SnippetWeight is a code snippet: code answers "how", the guides
	// answer "what"; get_sdk_snippet serves code.
	SnippetWeight float64

	// The query's intent (intent.go), applied to a section's score.
	SameEngineBoost     float64 // the guide or snippet of the engine asked about
	OtherEngineWeight   float64 // a page about another engine than the one asked about
	OtherLanguageWeight float64 // code in another language than the one asked for
	FailureBoost        float64 // error help, for a question about a failure
	NoFailureWeight     float64 // error help, for a question about anything else
	// ExactSnippetBoost is for the snippet of the engine and the language a
	// question names: "create an elasticsearch index from node" asks for
	// that code, and the guides, which show Python and curl, only talk
	// about it. At 1/SnippetWeight it undoes SnippetWeight.
	ExactSnippetBoost float64
	// CodeAskedBoost is for that snippet again when the question asks for
	// code in so many words ("example", "snippet", "script"): then the
	// code is the answer, not the guide that explains it.
	CodeAskedBoost float64
}

// DefaultTuning is the ranking the binary ships with.
var DefaultTuning = Tuning{
	K1: 1.2, BTitle: 0.3, BBody: 0.75, BAsks: 0.3,
	TitleWeight:    5,
	AsksWeight:     1,
	UntitledWeight: 0.7,
	PrefixScale:    0.4, SynonymScale: 0.7,
	HeadingBonus: 2, HeadingCover: 0.5, TitleBoost: 1.5,
	PhraseBoost: 1.5, PairBoost: 1.2,
	IntroWeight:     0.6,
	ReferenceWeight: 0.4,
	SnippetWeight:   0.5,

	SameEngineBoost: 1.5, OtherEngineWeight: 0.5, OtherLanguageWeight: 0.5,
	FailureBoost: 1.3, NoFailureWeight: 0.7,
	ExactSnippetBoost: 2, CodeAskedBoost: 1.5,
}

// Tune sets the index's weights; an index starts with DefaultTuning.
// For bench/search: it must not race a search.
func (ix *Index) Tune(t Tuning) { ix.tuning = &t }

// tune is the index's weights.
func (ix *Index) tune() *Tuning {
	if ix.tuning != nil {
		return ix.tuning
	}
	return &DefaultTuning
}
