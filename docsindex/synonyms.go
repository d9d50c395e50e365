package docsindex

import (
	"strings"
	"sync"
)

// synonyms maps the words developers and agents ask with to the words the
// guides use: "node" asks for the TypeScript snippets, "vector database"
// for Qdrant, "401" for unauthenticated. One line per concept, asked word
// first. The first part is this product's vocabulary; the second, general
// database and developer equivalences. Kept small: a pair goes in when
// anyone would grant it, never because one test question has the word.
var synonymLines = []string{
	"node: typescript",
	"nodejs: typescript",
	"javascript: typescript",
	"js: typescript",
	"golang: go",
	"postgresql: postgres pg",
	"postgres: pg",
	"elastic: elasticsearch",
	"vector: qdrant",
	"vars: variables environment",
	"env: environment",
	"token: key",
	"apikey: key",
	"credential: key",
	"credentials: key",
	"unauthorized: unauthenticated",
	"401: unauthenticated",
	"certificate: tls ca",
	"cert: tls ca",
	"ssl: tls",
	"refused: unreachable",
	"healthy: doctor check",
	"health: doctor check",
	"deploy: deployment",
	"cluster: deployment",
	"crate: crates cargo",
	"rust: crates cargo",
	"docker: headless container",
	"container: headless",
	"commit: git gitignore",
	"committed: git gitignore",
	"auto-approve: readonlyhint annotations",
	"approve: readonlyhint annotations",
	"safe: readonlyhint annotations",
	"setup: install",
	"configuration: install",
	// General database and developer equivalences.
	"backup: snapshot",
	"rollback: restore",
	"revert: restore",
	"index: collection",
	"embedding: vector",
	"embeddings: vector",
	"semantic: vector",
	"keyword: bm25 text",
	"fulltext: bm25 text",
	"tail: logs follow",
	"upgrade: update",
	"remove: delete",
	"erase: delete",
	"shutdown: stop",
	"folder: directory",
	"dir: directory",
	"address: url",
	"uri: url",
	"dsn: url",
	"db: database",
	"options: flags",
	"insert: upsert",
	"duplicate: clone",
	"fork: clone",
	"copy: clone",
	"launch: start",
	"boot: autostart",
	"startup: autostart",
	"reboot: autostart",
	"kill: stop",
	"wipe: delete",
	"purge: delete",
	"uninstall: remove",
	"readonly: read only",
	"signin: login",
	"password: key",
	"secret: key",
	"creds: key",
	"debug: logs",
	"downgrade: rollback",
}

// querySynonyms is the table above by stemmed word.
var querySynonyms = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range synonymLines {
		asked, means, _ := strings.Cut(line, ":")
		for _, a := range tokenize(asked) {
			m[a] = append(m[a], tokenize(means)...)
		}
	}
	return m
})

// questionWords are words of a question that say nothing about the topic
// ("which env vars does my app need"); dropped from queries only.
var questionWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range tokenize("need needs want should would could ever now way make let get gets getting use using used one own once look like please tell per") {
		m[w] = true
	}
	return m
})

// lightVerbs are verbs that carry little of a heading's topic: "Keep a stack
// running" is about running a stack, and "where does loams keep the key"
// is not about keeping. The heading's words still count as text; only the
// bonus for a query naming a section's own heading leaves these out.
var lightVerbs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range tokenize("keep go have know want work happen become") {
		m[w] = true
	}
	return m
})
