package agents

import (
	"reflect"
)

// current reads what loc holds for name (nil if absent).
func (l Location) current(name string) (map[string]any, error) {
	b, existed, err := readFile(l.Path, l.Root, l.MaxSize)
	if err != nil || !existed || len(b) == 0 {
		return nil, err
	}
	servers, err := l.decode(b)
	return servers[name], err
}

// matches reports whether a stored entry runs what en runs. Hosts add
// keys of their own (type, env), so only the command and url count.
func matches(stored map[string]any, en Entry) bool {
	if stored == nil {
		return false
	}
	argv, url, _ := storedCommand(stored)
	if en.URL != "" {
		return url == en.URL
	}
	return reflect.DeepEqual(argv, en.Command)
}

// urlKeys are the names hosts give an HTTP server's address.
var urlKeys = []string{"url", "serverUrl", "httpUrl"}

// storedCommand turns a stored entry back into argv or a URL (for doctor):
// {"command": "x", "args": [...]} or opencode's {"command": ["x", ...]}.
func storedCommand(stored map[string]any) (argv []string, url string, env map[string]string) {
	for _, k := range urlKeys {
		if u, _ := stored[k].(string); u != "" {
			return nil, u, nil
		}
	}
	switch cmd := stored["command"].(type) {
	case string:
		if cmd == "" {
			return nil, "", nil
		}
		argv = []string{cmd}
	case []any:
		for _, a := range cmd {
			s, _ := a.(string)
			argv = append(argv, s)
		}
	}
	if len(argv) == 0 {
		return nil, "", nil
	}
	args, _ := stored["args"].([]any)
	for _, a := range args {
		s, _ := a.(string)
		argv = append(argv, s)
	}
	for _, k := range []string{"env", "environment"} { // opencode calls it environment
		if e, ok := stored[k].(map[string]any); ok {
			env = map[string]string{}
			for k, v := range e {
				s, _ := v.(string)
				env[k] = s
			}
		}
	}
	return argv, "", env
}
