package redact

import (
	"bytes"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	Add("profile-token-\"quoted\"-1234", "short")
	key := "loams_abcdefghijkl_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
	for in, want := range map[string]string{
		"token profile-token-\"quoted\"-1234 end":         "token <redacted> end",
		`{"v":"profile-token-\"quoted\"-1234"}`:           `{"v":"<redacted>"}`,
		"LOAMS_API_KEY=" + key + "\n":                     "LOAMS_API_KEY=<redacted>\n",
		"short words stay":                                "short words stay",
		"loams_key_id is a word, loams_abc_def not a key": "loams_key_id is a word, loams_abc_def not a key",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
		if got := string(Bytes([]byte(in))); got != want {
			t.Errorf("Bytes(%q) = %q, want %q", in, got, want)
		}
	}
	var buf bytes.Buffer
	n, err := Writer{W: &buf}.Write([]byte("k=" + key))
	if err != nil || n != len("k="+key) || strings.Contains(buf.String(), key) {
		t.Errorf("Writer: %d %v %q", n, err, buf.String())
	}
}
