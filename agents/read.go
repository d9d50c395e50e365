package agents

import (
	"encoding/json"
	"reflect"
)

// current reads what loc holds for name, as a generic value (nil if absent).
// It only reads, so plain decoding is fine here.
func (l Location) current(name string) (map[string]any, error) {
	b, existed, err := readFile(l.Path)
	if err != nil || !existed || len(b) == 0 {
		return nil, err
	}
	if l.Format == "toml" {
		entry, _, err := tomlGet(b, l.Container, name)
		return entry, err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if l.Project != "" {
		projects, _ := doc["projects"].(map[string]any)
		doc, _ = projects[l.Project].(map[string]any)
	}
	servers, _ := doc[l.Container].(map[string]any)
	entry, _ := servers[name].(map[string]any)
	return entry, nil
}

// matches reports whether a stored entry runs what en runs. Agents add
// keys of their own (type, env), so only command, args and url count.
func matches(stored map[string]any, en Entry) bool {
	if stored == nil {
		return false
	}
	if en.URL != "" {
		u, _ := stored["url"].(string)
		if u == "" {
			u, _ = stored["serverUrl"].(string)
		}
		return u == en.URL
	}
	cmd, _ := stored["command"].(string)
	args, _ := stored["args"].([]any)
	want := make([]any, len(en.Command)-1)
	for i, a := range en.Command[1:] {
		want[i] = a
	}
	if len(args) == 0 && len(want) == 0 {
		args = want
	}
	return cmd == en.Command[0] && reflect.DeepEqual(args, want)
}

// storedCommand turns a stored entry back into argv or a URL (for doctor).
func storedCommand(stored map[string]any) (argv []string, url string, env map[string]string) {
	if u, _ := stored["url"].(string); u != "" {
		return nil, u, nil
	}
	if u, _ := stored["serverUrl"].(string); u != "" {
		return nil, u, nil
	}
	cmd, _ := stored["command"].(string)
	if cmd == "" {
		return nil, "", nil
	}
	argv = []string{cmd}
	args, _ := stored["args"].([]any)
	for _, a := range args {
		s, _ := a.(string)
		argv = append(argv, s)
	}
	if e, ok := stored["env"].(map[string]any); ok {
		env = map[string]string{}
		for k, v := range e {
			s, _ := v.(string)
			env[k] = s
		}
	}
	return argv, "", env
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
