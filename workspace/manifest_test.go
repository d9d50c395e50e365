package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"loams.dev/cli/internal/errs"
)

// The Loams server plans loams.toml as its app manifest: loams edits [dev]
// and keeps every other byte.
func TestBindKeepsEveryOtherByte(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"new file": {"", newManifest + "\n[dev]\nstack = \"nodeapp\"\n"},
		"other tables, no [dev]": {
			"# the app\n[functions]\nembed = { runtime = \"wasm\" }  # keep\n",
			"# the app\n[functions]\nembed = { runtime = \"wasm\" }  # keep\n\n[dev]\nstack = \"nodeapp\"\n"},
		"[dev] with a profile and a comment": {
			"[dev]\n# ours\nprofile = \"staging\"\nstack = \"old\" # why\n\n[functions.x]\na = 1\n",
			"[dev]\n# ours\nprofile = \"staging\"\nstack = \"nodeapp\" # why\n\n[functions.x]\na = 1\n"},
		"[dev] without stack, before another table": {
			"[dev]\nprofile = \"p\"\n\n[x]\n",
			"[dev]\nprofile = \"p\"\nstack = \"nodeapp\"\n\n[x]\n"},
		"CRLF and no final newline": {
			"[x]\r\na = 1", "[x]\r\na = 1\r\n\r\n[dev]\r\nstack = \"nodeapp\"\r\n"},
		"unknown key in [dev] kept": {
			"[dev]\nfuture = true\n", "[dev]\nfuture = true\nstack = \"nodeapp\"\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, ManifestName)
			if tc.in != "" {
				os.WriteFile(p, []byte(tc.in), 0o644)
			}
			if _, changed, err := Bind(dir, "nodeapp"); err != nil || !changed {
				t.Fatalf("Bind: %v changed=%v", err, changed)
			}
			got, _ := os.ReadFile(p)
			if string(got) != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
			b, err := ReadManifest(p)
			if err != nil || b.Stack != "nodeapp" {
				t.Fatalf("read back %+v %v", b, err)
			}
			if _, changed, _ := Bind(dir, "nodeapp"); changed {
				t.Fatal("binding again to the same stack changed the file")
			}
		})
	}
}

func TestUnparseableManifestIsNamedByLineAndNeverRewritten(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ManifestName)
	bad := "[functions]\nok = 1\nbroken = = 2\n"
	os.WriteFile(p, []byte(bad), 0o644)
	_, _, err := Bind(dir, "nodeapp")
	e := errs.As(err)
	if e.Code != errs.ConfigUnparseable || e.ExitCode() != 5 || !strings.Contains(e.Message, p+":3:") {
		t.Fatalf("got %+v", e)
	}
	if got, _ := os.ReadFile(p); string(got) != bad {
		t.Fatal("an unparseable loams.toml was rewritten")
	}
}

func TestManifestInPlaceOfAFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("FIFOs and /dev/zero are Unix")
	}
	cases := map[string]func(p string){
		"directory": func(p string) { os.Mkdir(p, 0o755) },
		"fifo":      func(p string) { syscall.Mkfifo(p, 0o644) },
		// A link out of the project is refused before its target is looked at.
		"/dev/zero": func(p string) { os.Symlink("/dev/zero", p) },
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, ManifestName)
			make(p)
			want := errs.ConfigUnreadable
			if name == "/dev/zero" {
				want = errs.PathOutsideProject
			}
			if _, err := ReadManifest(p); !errs.Is(err, want) {
				t.Fatalf("read: %v", err)
			}
			if _, _, err := Bind(dir, "x"); !errs.Is(err, want) {
				t.Fatalf("bind: %v", err)
			}
		})
	}
}

func TestBindRefusesReadOnlyAndEscapingLinks(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	p := filepath.Join(dir, ManifestName)
	os.WriteFile(p, []byte("[x]\n"), 0o444)
	if _, _, err := Bind(dir, "nodeapp"); !errs.Is(err, errs.Forbidden) {
		t.Fatalf("read-only: %v", err)
	}
	os.Remove(p)
	target := filepath.Join(out, "loams.toml")
	os.WriteFile(target, []byte("[x]\n"), 0o644)
	os.Symlink(target, p)
	if _, _, err := Bind(dir, "nodeapp"); !errs.Is(err, errs.PathOutsideProject) {
		t.Fatalf("a link out of the project: %v, want path_outside_project", err)
	}
	if _, err := ReadManifest(p); !errs.Is(err, errs.PathOutsideProject) {
		t.Fatalf("reading through a link out of the project: %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "[x]\n" {
		t.Fatal("the file outside the project changed")
	}
	// A link inside the project is written through and stays a link.
	os.Remove(p)
	inside := filepath.Join(dir, "config", "loams.toml")
	os.MkdirAll(filepath.Dir(inside), 0o755)
	os.WriteFile(inside, []byte("[x]\n"), 0o644)
	os.Symlink(inside, p)
	if _, _, err := Bind(dir, "nodeapp"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(p); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
}

func TestUnknownDevKeysAreReported(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ManifestName)
	os.WriteFile(p, []byte("[dev]\nstack = \"a\"\nstak = \"b\"\n"), 0o644)
	b, err := ReadManifest(p)
	if err != nil || len(b.Unknown) != 1 || b.Unknown[0] != "stak" {
		t.Fatalf("got %+v %v", b, err)
	}
}
