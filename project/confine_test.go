package project

import (
	"os"
	"path/filepath"
	"testing"

	"loams.dev/cli/internal/errs"
)

func TestConfine(t *testing.T) {
	t.Parallel()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	proj := filepath.Join(base, "proj")
	out := filepath.Join(base, "elsewhere")
	for _, d := range []string{proj, out, filepath.Join(proj, "sub"), filepath.Join(proj, ".env.loams.d")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(proj, "dirs"), 0o755)
	os.Mkdir(filepath.Join(proj, "dirs", ".env.loams"), 0o755)
	os.WriteFile(filepath.Join(out, ".env"), []byte("X=1\n"), 0o600)
	os.WriteFile(filepath.Join(proj, ".env.real"), []byte("X=1\n"), 0o600)
	os.WriteFile(filepath.Join(proj, "notes.txt"), []byte("x"), 0o600)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(out, filepath.Join(proj, "link-out")))                                 // dir link leaving the project
	must(os.Symlink(filepath.Join(proj, "sub"), filepath.Join(proj, "link-in")))           // dir link inside
	must(os.Symlink(filepath.Join(out, ".env"), filepath.Join(proj, "sub", ".env.loams"))) // file link leaving
	must(os.Symlink(filepath.Join(proj, ".env.real"), filepath.Join(proj, ".env")))        // file link inside
	must(os.Symlink(filepath.Join(proj, "notes.txt"), filepath.Join(proj, ".env.notes")))  // inside, but not a .env file
	must(os.Symlink(filepath.Join(out, "missing"), filepath.Join(proj, ".env.dangling")))

	tests := []struct {
		path string
		want string // resolved path on success
		code errs.Code
	}{
		{path: ".env.loams", want: filepath.Join(proj, ".env.loams")},
		{path: "sub/../.env.loams", want: filepath.Join(proj, ".env.loams")},
		{path: filepath.Join(proj, ".env.local"), want: filepath.Join(proj, ".env.local")},
		{path: "link-in/.env.loams", want: filepath.Join(proj, "sub", ".env.loams"), code: errs.PathOutsideProject}, // that file links outside
		{path: "link-in/.env.x", want: filepath.Join(proj, "sub", ".env.x")},
		{path: ".env", want: filepath.Join(proj, ".env.real")},
		{path: "../.env.loams", code: errs.PathOutsideProject},
		{path: "sub/../../elsewhere/.env", code: errs.PathOutsideProject},
		{path: filepath.Join(out, ".env"), code: errs.PathOutsideProject},
		{path: "/etc/.env", code: errs.PathOutsideProject},
		{path: "link-out/.env", code: errs.PathOutsideProject},
		{path: "sub/.env.loams", code: errs.PathOutsideProject},
		{path: ".env.dangling", code: errs.PathOutsideProject},
		{path: "notes.txt", code: errs.PathOutsideProject},
		{path: "config.env", code: errs.PathOutsideProject},
		{path: ".bashrc", code: errs.PathOutsideProject},
		{path: "README.md", code: errs.PathOutsideProject}, // issue 11 item 18: was usage
		{path: ".env.notes", code: errs.PathOutsideProject},
		{path: "", code: errs.Usage},
		{path: ".env.loams.d", code: errs.Usage},
		{path: "dirs/.env.loams", code: errs.Usage},
		{path: "nodir/.env", code: errs.Usage},
	}
	for _, tt := range tests {
		got, err := Confine(proj, tt.path)
		if tt.code != "" {
			if !errs.Is(err, tt.code) {
				t.Errorf("Confine(%q) = %q, %v; want %s", tt.path, got, err, tt.code)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Confine(%q) = %q, %v; want %q", tt.path, got, err, tt.want)
		}
	}
}
