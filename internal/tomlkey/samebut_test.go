package tomlkey

import "testing"

// SameBut compares what the decoder reads, outside one key or table: line
// layout, comments and the tables a set creates (or a removal empties) do
// not count; a change anywhere else does, and a nan or a time read twice
// is still itself.
func TestSameBut(t *testing.T) {
	for _, c := range []struct {
		before, after string
		path          []string
		want          bool
	}{
		{"a = 1\n", "a = 1 # c\n\n", []string{"x"}, true},
		{"", "[profile.p]\nserver_binary = \"b\"\n", []string{"profile", "p", "server_binary"}, true},
		{"[profile.p]\nk = 1\n", "[profile.p]\nk = 2\n", []string{"profile", "p", "k"}, true},
		{"[profile.p]\nk = 1\no = 1\n", "[profile.p]\nk = 2\no = 2\n", []string{"profile", "p", "k"}, false},
		{"[m.loams]\nc = 1\n[m.loams.env]\n[x]\n", "[x]\n", []string{"m", "loams"}, true},
		{"[m.loams]\n[m.other]\n", "", []string{"m", "loams"}, false},
		{"n = nan\nt = 1979-05-27T07:32:00-08:00\nd = 1979-05-27\nf = -0.0\n[dev]\n", "n = nan\nt = 1979-05-27T07:32:00-08:00\nd = 1979-05-27\nf = -0.0\n[dev]\nstack = \"a\"\n", []string{"dev", "stack"}, true},
		{"f = 0.0\n", "f = -0.0\n", []string{"x"}, false},
		{"[[a]]\nb = 1\n[[a]]\nb = 2\n", "[[a]]\nb = 1\n[[a]]\nb = 3\n", []string{"x"}, false},
	} {
		got, _, err := SameBut([]byte(c.before), []byte(c.after), c.path...)
		if err != nil || got != c.want {
			t.Errorf("SameBut(%q, %q, %q) = %v %v, want %v", c.before, c.after, c.path, got, err, c.want)
		}
	}
	if _, _, err := SameBut([]byte("a = 1\n"), []byte("a = \n"), "x"); err == nil {
		t.Error("an after that does not decode is not an error")
	}
	// What after holds at path: the value, or nil for nothing (and never
	// a look inside a value that is not a table).
	for _, c := range []struct {
		after string
		want  any
	}{{"[dev]\nstack = \"a\"\n", "a"}, {"[dev]\n", nil}, {"dev = 1\n", nil}, {"", nil}} {
		if _, at, err := SameBut(nil, []byte(c.after), "dev", "stack"); err != nil || at != c.want {
			t.Errorf("SameBut(…, %q) holds %v %v, want %v", c.after, at, err, c.want)
		}
	}
}
