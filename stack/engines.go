// Package stack manages local Loams stacks: the engine registry, stack.toml,
// port allocation, finding the server binary, and supervising the server
// process. The CLI verbs and the MCP tools both call it.
package stack

import (
	"fmt"
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
)

// Listener is one port an engine binds.
type Listener struct {
	Key      string // key in stack.toml's [ports]
	Flag     string // server flag that takes 127.0.0.1:PORT
	Port     int    // default port of the first stack
	Offset   int    // port = base + offset for later stacks
	Endpoint string // name in describe's endpoints
	Scheme   string // URL scheme of the endpoint
	Path     string // URL path suffix (the MCP endpoint's /mcp)
}

// EnvVar is a variable .env.loams gets for an engine; its value is the URL
// of one of the engine's listeners.
type EnvVar struct {
	Name     string
	Listener string // Listener.Key
	Suffix   string // appended to the URL (pg's database)
}

// Engine is one row of the registry: everything about an engine is data.
type Engine struct {
	Name      string
	Aliases   []string
	Listeners []Listener
	OffFlag   string // flag that turns an on-by-default engine off; "" if off unless given
	Default   bool   // in the default --engines set
	Optional  bool   // planned: used only when the binary's dev --help lists its flag
	Env       []EnvVar
	Doc       string // guide in the docs bundle
}

// registry is in the order of the spec's table, which is also the order of
// flags on the server command line and of variables in .env.loams.
var registry = []Engine{
	{Name: "native", Default: true, Doc: "guides/engines/native.md",
		Listeners: []Listener{{Key: "native", Flag: "--listen", Port: 8080, Offset: 80, Endpoint: "http", Scheme: "http"}},
		Env:       []EnvVar{{Name: "LOAMS_URL", Listener: "native"}, {Name: "LOAMS_ENDPOINT", Listener: "native"}}},
	{Name: "flight-sql", Default: true, OffFlag: "--no-flight-sql", Doc: "guides/engines/flight-sql.md",
		Listeners: []Listener{{Key: "flight_sql", Flag: "--flight-sql-listen", Port: 8082, Offset: 82, Endpoint: "grpc", Scheme: "grpc"}},
		Env:       []EnvVar{{Name: "LOAMS_FLIGHT_SQL_URL", Listener: "flight_sql"}}},
	{Name: "mcp", Default: true, Optional: true, OffFlag: "--no-mcp", Doc: "guides/engines/mcp-endpoint.md",
		Listeners: []Listener{{Key: "mcp", Flag: "--mcp-listen", Port: 8083, Offset: 83, Endpoint: "http", Scheme: "http", Path: "/mcp"}},
		Env:       []EnvVar{{Name: "LOAMS_MCP_URL", Listener: "mcp"}}},
	{Name: "qdrant", Default: true, OffFlag: "--no-qdrant", Doc: "guides/engines/qdrant.md",
		Listeners: []Listener{
			{Key: "qdrant", Flag: "--qdrant-listen", Port: 6333, Offset: 33, Endpoint: "rest", Scheme: "http"},
			{Key: "qdrant_grpc", Flag: "--qdrant-grpc-listen", Port: 6334, Offset: 34, Endpoint: "grpc", Scheme: "http"}},
		Env: []EnvVar{{Name: "QDRANT_URL", Listener: "qdrant"}, {Name: "QDRANT_GRPC_URL", Listener: "qdrant_grpc"}}},
	{Name: "es", Aliases: []string{"elasticsearch"}, Default: true, OffFlag: "--no-es", Doc: "guides/engines/elasticsearch.md",
		Listeners: []Listener{{Key: "es", Flag: "--es-listen", Port: 9200, Offset: 92, Endpoint: "http", Scheme: "http"}},
		Env:       []EnvVar{{Name: "ELASTICSEARCH_URL", Listener: "es"}}},
	{Name: "pg", Aliases: []string{"postgres-wire"}, Doc: "guides/engines/postgres-wire.md",
		Listeners: []Listener{{Key: "pg", Flag: "--pg-listen", Port: 15432, Offset: 32, Endpoint: "postgres", Scheme: "postgres"}},
		Env:       []EnvVar{{Name: "LOAMS_PG_URL", Listener: "pg", Suffix: "/default"}}},
	{Name: "durable", OffFlag: "--no-durable", Doc: "guides/engines/durable.md",
		Listeners: []Listener{{Key: "durable", Flag: "--durable-listen", Port: 8001, Offset: 1, Endpoint: "http", Scheme: "http"}},
		Env:       []EnvVar{{Name: "LOAMS_DURABLE_URL", Listener: "durable"}}},
	{Name: "mysql",
		Listeners: []Listener{{Key: "mysql", Flag: "--mysql-listen", Port: 13306, Offset: 6, Endpoint: "mysql", Scheme: "mysql"}},
		Env:       []EnvVar{{Name: "LOAMS_MYSQL_URL", Listener: "mysql"}}},
	{Name: "stream-grpc",
		Listeners: []Listener{{Key: "stream_grpc", Flag: "--stream-grpc-listen", Port: 8085, Offset: 85, Endpoint: "grpc", Scheme: "grpc"}},
		Env:       []EnvVar{{Name: "LOAMS_STREAM_GRPC_URL", Listener: "stream_grpc"}}},
	{Name: "live", Optional: true, OffFlag: "--no-live",
		Listeners: []Listener{{Key: "live", Flag: "--live-listen", Port: 7710, Offset: 10, Endpoint: "http", Scheme: "http"}},
		Env:       []EnvVar{{Name: "LOAMS_LIVE_URL", Listener: "live"}}},
}

// companions are the container services of a server deployment, which a
// local stack does not run.
var companions = map[string]string{
	"postgres": "a local stack keeps its metastore embedded; for SQL over collections use the pg engine (Postgres wire)",
	"tikv":     "a local stack keeps its metastore embedded; TiKV is for cluster deployments",
	"rustfs":   "a local stack keeps objects in its storage directory; RustFS is for standalone deployments",
}

// Engines returns the registry in order.
func Engines() []Engine { return slices.Clone(registry) }

// EngineByName finds an engine by name or alias.
func EngineByName(name string) (Engine, bool) {
	for _, e := range registry {
		if e.Name == name || slices.Contains(e.Aliases, name) {
			return e, true
		}
	}
	return Engine{}, false
}

// EnvNames is every variable .env.loams can hold, in file order.
func EnvNames() []string {
	names := []string{"LOAMS_STACK", "LOAMS_API_KEY"}
	for _, e := range registry {
		for _, v := range e.Env {
			names = append(names, v.Name)
		}
	}
	return names
}

// Names is the engine names, for hints.
func Names() []string {
	var names []string
	for _, e := range registry {
		names = append(names, e.Name)
	}
	return names
}

// ParseEngines turns a --engines list into registry names in registry order:
// native implied, aliases resolved, duplicates collapsed. An empty list is
// the default set; optional engines join it when available says so.
func ParseEngines(list []string, available func(Engine) bool) ([]string, error) {
	want := map[string]bool{"native": true}
	if len(list) == 0 {
		for _, e := range registry {
			if e.Default && (!e.Optional || available(e)) {
				want[e.Name] = true
			}
		}
	}
	for _, raw := range list {
		name := strings.ToLower(strings.TrimSpace(raw))
		if name == "" {
			continue
		}
		if why, ok := companions[name]; ok {
			return nil, errs.New(errs.EngineUnsupported, why, "%s is not an engine of a local stack", name).With("engine", name)
		}
		e, ok := EngineByName(name)
		if !ok {
			return nil, errs.New(errs.Usage, "valid engines: "+strings.Join(Names(), ", "), "unknown engine %q", name).With("engine", name)
		}
		if e.Optional && !available(e) {
			return nil, errs.New(errs.FeatureNotInServer, "install a newer Loams server, or leave "+e.Name+" out of --engines",
				"this server binary has no %s flag", e.Listeners[0].Flag).With("engine", e.Name).
				ForAgent(errs.AskUser("loams server install") + " for a newer server, or call stack_create without " + e.Name + " in engines")
		}
		want[e.Name] = true
	}
	var out []string
	for _, e := range registry {
		if want[e.Name] {
			out = append(out, e.Name)
		}
	}
	return out, nil
}

// url is the address of a listener on loopback.
func (l Listener) url(port int) string {
	return fmt.Sprintf("%s://127.0.0.1:%d%s", l.Scheme, port, l.Path)
}
