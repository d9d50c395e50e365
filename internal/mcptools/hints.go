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
// (getting-started, stacks, engines, env-and-secrets, packages), never from
// a list of test queries. Whole words count (ToolSearch matches \bword\b),
// so the forms people type are listed ("error code" and "error codes"), and
// the three stack tools name the stack alike: a local database or search
// engine stack. A tool with an enum of tasks names each of them
// (get_sdk_snippet: connect … create a collection … sql).
var SearchHints = map[string]string{
	"search_docs": "loams documentation, docs, guides, manual, how to, faq: port and ports, settings, config, " +
		"environment variables, api key, engines (qdrant, elasticsearch, postgres, flight sql), " +
		"error, error code and error codes, troubleshooting, fix a failure, mcp setup, cli commands and flags reference",
	"get_sdk_snippet": "code example, sample code, snippet: connect, create a collection, insert, upsert, query, search, hybrid search or sql " +
		"from python, typescript, javascript, node, go or shell to qdrant, elasticsearch, postgres or the vector database",
	"loams_info": "loams version, installed cli and server binary, home directory, keyring or secrets backend, " +
		"available engines; diagnose setup",
	"stack_status": "is the local database or search engine running? list local stacks: state, health, " +
		"ports, urls, endpoints, connection info, crash logs",
	"stack_create": "create, set up, spin up or provision a new local database or search engine stack for this " +
		"project: vector database, qdrant, elasticsearch, postgres, sql",
	"stack_start": "start, restart, boot or bring up a stopped or crashed local database or search engine stack " +
		"and wait until it is ready",
	"env_export": "write connection settings, urls and the api key to .env.loams, a dotenv or .env file: " +
		"environment variables, credentials and secrets for the app",
	"add_package": "install or add a client library, sdk, package or dependency with npm, pnpm, yarn, pip, uv, " +
		"poetry, cargo or go get",
}

// MetaAlwaysLoad is the tool _meta key that makes Claude Code put the tool
// in the model's tool list up front instead of deferring it behind
// ToolSearch (equivalent to defer_loading: false on the API).
const MetaAlwaysLoad = "anthropic/alwaysLoad"

// AlwaysLoad are the tools an agent needs in most sessions, so a search
// before the first call is a turn lost. search_docs answers the questions
// an agent meets first (ports, variables, errors), and its name competes in
// ToolSearch with Claude Code's own WebSearch for the word "search".
// stack_status is the first call for anything about a stack (the
// instructions say so), and "list", the word people use for it, is Claude
// Code's own: a word of a deferred tool's name scores 13 there (CronList,
// TaskList, ListMcpResourcesTool) plus 4 for its hint and 2 for its
// description, 19 in all, while a word in our hint and description scores
// 6, so "list stacks health" cannot rank it first by any wording (18). Both
// are read-only; their definitions cost what bench/toolsearch reports as
// "loams tools up front" (about 1.3 KB); the six others stay deferred,
// found by their hints.
var AlwaysLoad = map[string]bool{"search_docs": true, "stack_status": true}

// Meta is a tool's _meta for hosts that defer tools: its search hint, and
// alwaysLoad where the tool is one of AlwaysLoad.
func Meta(tool string) map[string]any {
	m := map[string]any{MetaSearchHint: SearchHints[tool]}
	if AlwaysLoad[tool] {
		m[MetaAlwaysLoad] = true
	}
	return m
}
