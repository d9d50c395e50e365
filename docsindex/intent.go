package docsindex

import "strings"

// A question names more than words: "call elasticsearch from typescript"
// asks about one engine in one language, and a section about another engine
// or code in another language answers a different question, however many
// words it shares; "my app gets connection refused" asks about a failure,
// which the error codes' entries answer, and "which env vars" does not.
// intent is what a query names; facets what a section is about. Both come
// from tables of the product's words, not from the labelled query sets.
//
// Measured (bench/search) and left out: a boost for sections with code when
// a question asks for steps ("how do I", "set up"), and for the CLI
// reference when it names a flag: neither moved the figures, or lowered them.

// engineWords are the words that name an engine, by the engine's key (the
// snippet folder); the guides' pages map to the same keys below.
var engineWords = map[string]string{
	"qdrant": "qdrant", "elasticsearch": "es", "elastic": "es", "es": "es",
	"postgres": "pg", "postgresql": "pg", "pg": "pg", "psql": "pg",
	"flight": "flight-sql", "adbc": "flight-sql", "arrow": "flight-sql",
	"durable": "durable", "native": "native",
	"psycopg": "pg", "pgx": "pg",
}

// enginePages are the guides about one engine.
var enginePages = map[string]string{
	"guides/engines/qdrant.md": "qdrant", "guides/engines/elasticsearch.md": "es",
	"guides/engines/postgres-wire.md": "pg", "guides/engines/flight-sql.md": "flight-sql",
	"guides/engines/durable.md": "durable", "guides/engines/native.md": "native",
}

// languageWords name a language, by the snippet folder's name. "go" is a
// verb as often as a language ("where does the file go"), so it counts only
// beside a word that makes it one (below).
var languageWords = map[string]string{
	"python": "python", "pip": "python", "uv": "python", "py": "python", "django": "python", "fastapi": "python",
	"typescript": "typescript", "ts": "typescript", "node": "typescript", "nodejs": "typescript",
	"javascript": "typescript", "js": "typescript", "npm": "typescript", "pnpm": "typescript", "deno": "typescript",
	"golang": "go", "rust": "rust", "cargo": "rust", "crate": "rust",
	"poetry": "python", "venv": "python", "pandas": "python", "psycopg": "python",
	"yarn": "typescript", "bun": "typescript", "pgx": "go",
	"curl": "shell", "bash": "shell", "shell": "shell",
}

var goAsLanguage = map[string]bool{"client": true, "app": true, "code": true, "program": true, "module": true,
	"sdk": true, "driver": true, "snippet": true, "example": true, "service": true, "from": true, "in": true, "with": true}

// goBeside: "go" next to one of these is the language ("go client",
// "qdrant go", "go qdrant"): an engine's name beside it is as telling as
// "client" or "code".
func goBeside(w string) bool {
	_, engine := engineWords[w]
	return goAsLanguage[w] || engine
}

type intent struct {
	engines, languages map[string]bool
	failure            bool // "… fails", "connection refused": the answer is an error's entry
	code               bool // "example", "snippet": the question asks for code itself
}

// codeWords ask for code itself, not for the guide that explains it.
var codeWords = map[string]bool{"example": true, "examples": true, "snippet": true, "snippets": true,
	"sample": true, "samples": true, "script": true, "code": true, "program": true}

// failureWords say something went wrong: the question is about an error,
// and the error codes' entries and troubleshooting sections answer it.
var failureWords = map[string]bool{"error": true, "errors": true, "fail": true, "fails": true, "failed": true,
	"failing": true, "failure": true, "refused": true, "denied": true, "missing": true, "crash": true,
	"crashed": true, "crashes": true, "broken": true, "wrong": true, "cannot": true, "can't": true, "won't": true,
	"doesn't": true, "unreachable": true, "timeout": true, "timed": true, "invalid": true, "exists": true,
	"already": true, "gone": true, "lost": true, "never": true, "stuck": true, "401": true, "403": true}

// intentOf reads the engines, languages and failure a query names, from
// its raw words (before stemming: "es" and "ts" are words here).
func intentOf(query string) intent {
	in := intent{engines: map[string]bool{}, languages: map[string]bool{}}
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	for _, w := range strings.Fields(query) {
		w = strings.Trim(w, ".,;:!?\"'`")
		// An error code is lower snake_case (port_in_use); LOAMS_API_KEY is a variable.
		code := strings.Contains(w, "_") && w == strings.ToLower(w)
		in.failure = in.failure || failureWords[strings.ToLower(w)] || code
	}
	for i, w := range words {
		if e, ok := engineWords[w]; ok {
			in.engines[e] = true
		}
		if l, ok := languageWords[w]; ok {
			in.languages[l] = true
		}
		in.code = in.code || codeWords[w]
		if w == "go" && (i+1 < len(words) && goBeside(words[i+1]) || i > 0 && goBeside(words[i-1])) {
			in.languages["go"] = true
		}
	}
	return in
}

// facets is what one section is about: its engine (from its page or
// snippet folder), a snippet's language, and whether it helps with errors.
type facets struct {
	engine    string
	language  string // snippets only: the guides show several languages side by side
	errorHelp bool   // an error code's entry or a troubleshooting section
}

func facetsOf(s Section) facets {
	if rest, ok := strings.CutPrefix(s.Path, "snippets/"); ok {
		engine, rest, _ := strings.Cut(rest, "/")
		lang, _, _ := strings.Cut(rest, "/")
		if lang == "javascript" {
			lang = "typescript" // the same question asked of Node
		}
		return facets{engine: engine, language: lang}
	}
	f := facets{engine: enginePages[s.Path]}
	for _, t := range s.TitlePath[1:] {
		f.errorHelp = f.errorHelp || t == "Error codes and what to do" || t == "Troubleshooting" ||
			strings.HasPrefix(t, "Errors ") || strings.HasPrefix(t, "When ")
	}
	return f
}

// weight is what intent makes of a section's score.
func (in intent) weight(f facets, tn *Tuning) float64 {
	w := 1.0
	if f.errorHelp {
		if in.failure {
			w *= tn.FailureBoost
		} else {
			w *= tn.NoFailureWeight
		}
	}
	if len(in.engines) > 0 && f.engine != "" {
		if in.engines[f.engine] {
			w *= tn.SameEngineBoost
		} else {
			w *= tn.OtherEngineWeight
		}
	}
	if len(in.languages) > 0 && f.language != "" && !in.languages[f.language] {
		w *= tn.OtherLanguageWeight
	}
	if f.language != "" && in.languages[f.language] && in.engines[f.engine] {
		w *= tn.ExactSnippetBoost // a snippet's language is set, and only a snippet's
		if in.code {
			w *= tn.CodeAskedBoost
		}
	}
	return w
}
