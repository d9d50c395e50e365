package release

import (
	"slices"
	"testing"
)

// The shipped file has no key yet: installs need --allow-unsigned until
// the server project publishes one.
func TestNoKeyShipped(t *testing.T) {
	if k := Keys(); len(k) != 0 {
		t.Fatalf("release/minisign.pub holds %d keys; update the server guide and this test when a key is published", len(k))
	}
}

func TestParseKeys(t *testing.T) {
	text := "untrusted comment: minisign public key 1\nRWQcurrent\n\nuntrusted comment: next\nRWQnext\nRWQthird\n"
	if got := parseKeys(text); !slices.Equal(got, []string{"RWQcurrent", "RWQnext"}) {
		t.Fatalf("%q", got)
	}
}
