package main

import (
	"net/http"
	"os"
	"strings"
)

// services maps Connect packages to the feature that brings them.
var services = []struct{ pkg, feature string }{
	{"loams.instance.v1", ""}, {"loams.collections.v1", ""}, {"loams.live.v1", "live"},
	{"loams.durable.v1", "durable"}, {"loams.mcp.v1", "mcp"}, {"loams.pgwire.v1", "pgwire"},
	{"loams.graph.v1", "graph"},
}

// getInstance answers the Connect JSON GetInstance like the real server:
// lowerCamelCase keys, or snake_case with TESTSERVER_SNAKE_CASE=1 (the CLI
// accepts both). TESTSERVER_NO_GETINSTANCE=1 is an older server without
// the route.
func (b build) getInstance(version string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if os.Getenv("TESTSERVER_NO_GETINSTANCE") != "" {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			w.WriteHeader(http.StatusUnsupportedMediaType)
			return
		}
		var svcs []map[string]any
		for _, s := range services {
			svcs = append(svcs, map[string]any{"package": s.pkg, "available": b.hasFeature(s.feature), "unstable": s.feature == "graph"})
		}
		edition := "standard"
		if !b.hasFeature("mcp") {
			edition = "packaged"
		}
		doc := map[string]any{"instanceId": "standin-" + strings.TrimPrefix(version, "loams "), "name": "dev", "edition": edition,
			"serverVersion": strings.TrimPrefix(version, "loams "), "apiVersions": []string{"v1"}, "services": svcs, "signInMethods": []string{}}
		if os.Getenv("TESTSERVER_SNAKE_CASE") != "" {
			doc = map[string]any{"instance_id": doc["instanceId"], "name": "dev", "edition": edition, "server_version": doc["serverVersion"],
				"api_versions": doc["apiVersions"], "services": svcs, "sign_in_methods": []string{}}
		}
		writeJSON(w, doc)
	}
}
