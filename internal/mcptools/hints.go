package mcptools

// MetaSearchHint is the tool _meta key Claude Code reads when it defers MCP
// tools behind its ToolSearch: the hint's words score beside the tool's name
// and description. A user asks for "a local database", "the env file" or
// "a code example", and our names say stack, env_export, snippet: without
// the hints, for half such requests the right tool was not ranked first
// (issue 30; bench/toolsearch measures it with the real Claude Code).
const MetaSearchHint = "anthropic/searchHint"

// SearchHints are a few phrases per tool in the words people use for what
// the tool does, taken from its purpose and the guide that teaches it
// (getting-started, stacks, engines, env-and-secrets, packages), not from
// the benchmark's requests (bench/toolsearch's probes showed which kinds
// of word lose; the words come from the tools). How ToolSearch scores
// (Claude Code 2.1, read from its source): per word of the query, 12 for a
// word of the tool's name (and 4 more when it is inside the name), 4 when
// the hint has it as a whole word (\bword\b, so the forms people type are
// listed: "set up" and "setup", "install" and "installed"), 2 when the
// description has it; ties go to Claude Code's own tools, then to our
// tools in name order. So:
//
//   - a hint names the verbs and objects of its own tool, with their
//     synonyms, and not those of a sibling: "start" words are stack_start's,
//     "create" words stack_create's ("run" is stack_start's, not the
//     snippets' "run sql"), and the three stack tools share the same nouns
//     (stackNouns).
//   - a tool with a list of values names each in people's words
//     (get_sdk_snippet: connect … create a collection … sql; add_package:
//     every package it may install and the languages; their tests check
//     each value is there).
//   - no hint says "loams" inside another word: ".env.loams" made every
//     query with "loams" in it rank env_export above loams_info.
var SearchHints = map[string]string{
	"search_docs": "loams documentation, docs, guides, manual, how to, faq: port and ports, settings, config, " +
		"environment variables, api key, engines (qdrant, elasticsearch, postgres, flight sql), " +
		"error, error code and error codes, troubleshooting, fix a failure, mcp setup, cli commands and flags reference",
	"get_sdk_snippet": "code example, sample code, snippet, starter or boilerplate code for an app: connect a client, " +
		"create a collection or index, insert, upsert or index documents, query, search, vector search, full-text search, " +
		"hybrid search or sql from python, typescript, javascript, node, go, shell, curl or psql to qdrant, " +
		"elasticsearch, postgres, the vector database or the native endpoint",
	"loams_info": "loams doctor: version of the loams cli, installed or missing server binary, installation check, " +
		"home and data directory, where keys are stored (keyring or file secrets backend), available engines, " +
		"stack count; diagnose setup problems",
	"stack_status": "is it running? list, check or show " + stackNouns + ": state, health, ports, urls, endpoints, " +
		"connection info, crash logs",
	"stack_create": "create, make, set up, setup, spin up or provision " + stackNouns + ": a new, fresh, throwaway " +
		"or sandbox one for this project or its tests, or a copy or clone of one",
	"stack_start": "start, restart, boot, run, launch, resume, wake or bring up " + stackNouns + " that is stopped, " +
		"crashed or down after a reboot or a crash, and wait until it is ready",
	"env_export": "write, save, generate or update the env file: .env, dotenv, env vars with the connection settings, " +
		"connection string, urls, endpoints and api key; environment variables, credentials and secrets for the app " +
		"or project to load",
	"add_package": "install or add a client library, driver, sdk, package or dependency to the project with npm, pnpm, " +
		"yarn, bun, pip, uv, poetry, cargo or go get (package.json, requirements.txt, pyproject.toml, go.mod, cargo.toml): " +
		"the sdk, live, durable, bullmq or celery, or the qdrant, elasticsearch, postgres (pg, psycopg, pgx) or " +
		"flight sql client for python, typescript, javascript, node, go or rust",
}

// stackNouns are what the three stack tools act on, in people's words: the
// same in each hint, so only a request's verb tells them apart ("restart
// the dev database" had ranked stack_create first when only its hint said
// "dev").
const stackNouns = "a local or dev database, vector database, search engine, server or stack (qdrant, elasticsearch, " +
	"postgres, mysql, sql) running locally"

// MetaAlwaysLoad is the tool _meta key that makes Claude Code put the tool
// in the model's tool list up front instead of deferring it behind
// ToolSearch (equivalent to defer_loading: false on the API).
const MetaAlwaysLoad = "anthropic/alwaysLoad"

// AlwaysLoad are the tools whose own words ToolSearch gives to Claude
// Code's tools, so no wording ranks them first: a word of a deferred tool's
// name scores 13 there, plus 4 for its hint and 2 for its description, 19
// in all, while a word in our hint and description scores 6, so a request
// with such a word and two others is lost. search_docs ("search":
// WebSearch) answers the questions an agent meets first; stack_status
// ("list": CronList, TaskList, ListMcpResourcesTool) is the first call for
// anything about a stack, as the instructions say; get_sdk_snippet's own
// tasks are "search", "hybrid search" and "create a collection" (WebSearch,
// TaskCreate, and stack_create's name). All three are read-only, and the
// instructions send the model to them first. Their definitions cost what
// bench/toolsearch reports as "loams tools up front" (about 2 KB of the
// 78 KB the model reads before any search); the five others stay deferred,
// found by their hints.
var AlwaysLoad = map[string]bool{"search_docs": true, "stack_status": true, "get_sdk_snippet": true}

// Meta is a tool's _meta for hosts that defer tools: its search hint, and
// alwaysLoad where the tool is one of AlwaysLoad.
func Meta(tool string) map[string]any {
	m := map[string]any{MetaSearchHint: SearchHints[tool]}
	if AlwaysLoad[tool] {
		m[MetaAlwaysLoad] = true
	}
	return m
}
