package plainjson

import (
	"encoding/json"
	"testing"
)

func TestMarshalKeepsAnglesAndAmpersands(t *testing.T) {
	got, err := Marshal(map[string]string{"v": "<redacted> & a/b"})
	if err != nil || string(got) != `{"v":"<redacted> & a/b"}` {
		t.Fatalf("got %s %v", got, err)
	}
}

// encoding/json leaves DEL and C1 raw; a document printed on a terminal
// must not carry them, and must still decode to the same string.
func TestMarshalEscapesDELAndC1(t *testing.T) {
	in := "a\x7fb\u009bc\u0085d\u00a0é\x1b"
	got, err := Marshal(map[string]string{"v": in})
	if err != nil || string(got) != `{"v":"a\u007fb\u009bc\u0085d`+"\u00a0é"+`\u001b"}` {
		t.Fatalf("got %s %v", got, err)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["v"] != in {
		t.Fatalf("round trip: %q %v", back["v"], err)
	}
}
