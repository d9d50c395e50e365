package envfile

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

func TestExportForAgent(t *testing.T) {
	t.Parallel()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	proj := filepath.Join(base, "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	os.Symlink(filepath.Join(base, "outside.env"), filepath.Join(proj, ".env.evil"))
	os.WriteFile(filepath.Join(base, "outside.env"), []byte("X=1\n"), 0o600)

	res, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj, MergeInto: ".env", Version: "0.1.0", Now: at})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), key) {
		t.Fatalf("the result leaks the key: %s", b)
	}
	if res.Values["LOAMS_API_KEY"] != Redacted || res.Path != filepath.Join(proj, ".env.loams") || res.MergedInto != filepath.Join(proj, ".env") {
		t.Errorf("result = %s", b)
	}
	if fi, err := os.Stat(res.Path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf(".env.loams: %v", err)
	}

	for _, bad := range []struct {
		path, merge string
		code        errs.Code
	}{
		{path: "../.env.loams", code: errs.PathOutsideProject},
		{path: ".env.evil", code: errs.PathOutsideProject},
		{merge: "../outside.env", code: errs.PathOutsideProject},
		{path: "README.md", code: errs.PathOutsideProject}, // issue 11 item 18: was usage
	} {
		before, _ := os.ReadFile(filepath.Join(base, "outside.env"))
		_, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj, Path: bad.path, MergeInto: bad.merge})
		if !errs.Is(err, bad.code) {
			t.Errorf("%+v: err %v, want %s", bad, err, bad.code)
		}
		if after, _ := os.ReadFile(filepath.Join(base, "outside.env")); string(after) != string(before) {
			t.Errorf("%+v: a file outside the project changed", bad)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, "README.md")); err == nil {
		t.Error("a refused path was written")
	}
}
