package shellquote

import "testing"

func TestJoin(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"npm", "install", "@qdrant/js-client-rest@^1.19.0"}, "npm install '@qdrant/js-client-rest@^1.19.0'"},
		{[]string{"pip", "install", "qdrant-client>=1.15,<2"}, "pip install 'qdrant-client>=1.15,<2'"},
		{[]string{"/a b/loams", "it's", ""}, "'/a b/loams' 'it'\\''s' ''"},
		{[]string{"go", "get", "github.com/x/y@v1"}, "go get github.com/x/y@v1"},
	} {
		if got := Join(tc.argv); got != tc.want {
			t.Errorf("Join(%q) = %s, want %s", tc.argv, got, tc.want)
		}
	}
}
