package archive

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tarOf(t *testing.T, entries ...tar.Header) *tar.Reader {
	t.Helper()
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for _, h := range entries {
		body := strings.Repeat("x", int(h.Size))
		if err := w.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	w.Close()
	return tar.NewReader(&b)
}

func refuse(format string, args ...any) error { return fmt.Errorf("refused: "+format, args...) }

func TestFromTarTakesOneFileAndRefusesTheRest(t *testing.T) {
	reg := func(name string, size int64) tar.Header {
		return tar.Header{Name: name, Typeflag: tar.TypeReg, Size: size, Mode: 0o755}
	}
	for name, tc := range map[string]struct {
		entries []tar.Header
		refused string
	}{
		"the binary":           {[]tar.Header{reg("README.md", 3), reg("loams", 10)}, ""},
		"an absolute path":     {[]tar.Header{reg("/etc/passwd", 1), reg("loams", 10)}, "absolute path"},
		"a climb":              {[]tar.Header{reg("x/../../evil", 1), reg("loams", 10)}, "climbs out"},
		"a link":               {[]tar.Header{{Name: "loams", Typeflag: tar.TypeSymlink, Linkname: "/bin/sh"}}, "is a link"},
		"two binaries":         {[]tar.Header{reg("loams", 1), reg("./loams", 1)}, "not one regular file"},
		"none":                 {[]tar.Header{reg("other", 1)}, "no loams"},
		"larger than the cap":  {[]tar.Header{reg("loams", 101)}, "larger than"},
		"a directory of loams": {[]tar.Header{{Name: "loams/", Typeflag: tar.TypeDir}}, "not one regular file"},
	} {
		t.Run(name, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "out")
			err := FromTar(tarOf(t, tc.entries...), "loams", dest, 100, refuse)
			if tc.refused == "" {
				if b, rerr := os.ReadFile(dest); err != nil || rerr != nil || len(b) != 10 {
					t.Fatalf("err %v, file %q %v", err, b, rerr)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.refused) {
				t.Fatalf("want %q, got %v", tc.refused, err)
			}
			if name == "larger than the cap" {
				if _, err := os.Stat(dest); !os.IsNotExist(err) {
					t.Fatal("a cut-short binary was left behind")
				}
			}
		})
	}
}
