package stack

import (
	"slices"
	"time"

	"loams.dev/cli/serverbin"
)

// Description is the `stack describe` object, also the result of the
// stack_create and stack_start tools.
type Description struct {
	Name          string     `json:"name"`
	State         string     `json:"state"`
	PID           *int       `json:"pid"`
	StartedAt     *time.Time `json:"started_at"`
	ServerBinary  string     `json:"server_binary"`
	ServerVersion string     `json:"server_version"`
	// Edition, Services and Compatibility come from the running server's
	// GetInstance (identify, binary.go); absent when it is not running.
	Edition       string              `json:"edition,omitempty"`
	Services      []serverbin.Service `json:"services,omitempty"`
	Compatibility string              `json:"compatibility,omitempty"`
	Engines       []EngineState       `json:"engines"`
	EnvNames      []string            `json:"env_names"`
	DataDir       string              `json:"data_dir"`
	LogPath       string              `json:"log_path"`
	CreatedAt     time.Time           `json:"created_at"`
	LogTail       []string            `json:"log_tail,omitempty"` // crashed or unhealthy: what the server said last
}

// EngineState is one engine of a described stack.
type EngineState struct {
	Engine    string            `json:"engine"`
	Endpoints map[string]string `json:"endpoints"`
	Env       []string          `json:"env"`
}

// describe builds the object from the spec and the state.
func (s *Spec) describe(state string, p *pidFile) *Description {
	d := &Description{Name: s.Name, State: state, ServerBinary: s.ServerBinary, ServerVersion: s.ServerVersion,
		DataDir: s.DataDir(), LogPath: s.LogPath(), CreatedAt: s.CreatedAt.UTC(), Engines: []EngineState{}}
	if p != nil && (state == Running || state == Starting || state == Unhealthy) {
		pid, at := p.PID, p.StartedAt.UTC().Truncate(time.Second)
		d.PID, d.StartedAt = &pid, &at
	}
	if state == Crashed || state == Unhealthy {
		d.LogTail, _ = Tail(s.LogPath(), 20)
	}
	d.EnvNames = []string{"LOAMS_STACK"}
	for _, e := range s.engines() {
		es := EngineState{Engine: e.Name, Endpoints: map[string]string{}, Env: []string{}}
		for _, l := range e.Listeners {
			es.Endpoints[l.Endpoint] = l.url(s.Ports[l.Key])
		}
		for _, v := range e.Env {
			es.Env = append(es.Env, v.Name)
			d.EnvNames = append(d.EnvNames, v.Name)
			if v.Name == "LOAMS_ENDPOINT" {
				d.EnvNames = append(d.EnvNames, "LOAMS_API_KEY")
			}
		}
		d.Engines = append(d.Engines, es)
	}
	if !slices.Contains(d.EnvNames, "LOAMS_API_KEY") {
		d.EnvNames = append(d.EnvNames, "LOAMS_API_KEY")
	}
	if state == Running {
		s.identify(d)
	}
	return d
}
