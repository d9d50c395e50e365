package plainjson

import "testing"

func TestMarshalKeepsAnglesAndAmpersands(t *testing.T) {
	got, err := Marshal(map[string]string{"v": "<redacted> & a/b"})
	if err != nil || string(got) != `{"v":"<redacted> & a/b"}` {
		t.Fatalf("got %s %v", got, err)
	}
}
