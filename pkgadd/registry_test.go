package pkgadd

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// wheel builds a pure-Python wheel of one module whose __version__ is
// version, with a RECORD pip accepts.
func wheel(t *testing.T, dist, module, version string) (name string, data []byte) {
	t.Helper()
	info := strings.ReplaceAll(dist, "-", "_") + "-" + version + ".dist-info/"
	files := [][2]string{
		{module + "/__init__.py", fmt.Sprintf("__version__ = %q\n", version)},
		{info + "METADATA", "Metadata-Version: 2.1\nName: " + dist + "\nVersion: " + version + "\n"},
		{info + "WHEEL", "Wheel-Version: 1.0\nGenerator: loams-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var record strings.Builder
	for _, f := range files {
		w, _ := zw.Create(f[0])
		w.Write([]byte(f[1]))
		sum := sha256.Sum256([]byte(f[1]))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", f[0], base64.RawURLEncoding.EncodeToString(sum[:]), len(f[1]))
	}
	record.WriteString(info + "RECORD,,\n")
	w, _ := zw.Create(info + "RECORD")
	w.Write([]byte(record.String()))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(dist, "-", "_") + "-" + version + "-py3-none-any.whl", buf.Bytes()
}

// simpleIndex serves a PEP 503 index holding files: /simple/<project>/
// lists them, anything else is 404 (as PyPI answers for an unknown name).
func simpleIndex(t *testing.T, project, file string, data []byte) *httptest.Server {
	t.Helper()
	sum := sha256.Sum256(data)
	mux := http.NewServeMux()
	mux.HandleFunc("/simple/"+project+"/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<!DOCTYPE html><html><body><a href=\"/files/%s#sha256=%s\">%s</a></body></html>\n", file, hex.EncodeToString(sum[:]), file)
	})
	mux.HandleFunc("/files/"+file, func(w http.ResponseWriter, r *http.Request) { w.Write(data) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// npmRegistry serves one package (its packument and a tarball per
// version, the last one tagged latest) the way registry.npmjs.org does;
// every other name is 404 {"error":"Not found"}.
func npmRegistry(t *testing.T, name string, versions ...string) *httptest.Server {
	t.Helper()
	tarballs := map[string][]byte{}
	for _, v := range versions {
		var tgz bytes.Buffer
		gz := gzip.NewWriter(&tgz)
		tw := tar.NewWriter(gz)
		pj := fmt.Sprintf(`{"name":%q,"version":%q,"main":"index.js"}`, name, v)
		for _, f := range [][2]string{{"package/package.json", pj}, {"package/index.js", "exports.ok = true;\n"}} {
			tw.WriteHeader(&tar.Header{Name: f[0], Mode: 0o644, Size: int64(len(f[1])), Typeflag: tar.TypeReg})
			tw.Write([]byte(f[1]))
		}
		tw.Close()
		gz.Close()
		tarballs[v] = tgz.Bytes()
	}
	escaped := strings.ToLower(strings.Replace(name, "/", "%2f", 1))
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.ToLower(r.URL.EscapedPath()) == "/"+escaped || r.URL.Path == "/"+name {
			vs := map[string]any{}
			for v, data := range tarballs {
				s1, s512 := sha1.Sum(data), sha512.Sum512(data)
				vs[v] = map[string]any{"name": name, "version": v, "dist": map[string]string{
					"tarball": srv.URL + "/tarballs/" + v + ".tgz", "shasum": hex.EncodeToString(s1[:]),
					"integrity": "sha512-" + base64.StdEncoding.EncodeToString(s512[:])}}
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"name": name, "dist-tags": map[string]string{"latest": versions[len(versions)-1]}, "versions": vs})
			return
		}
		if v, ok := strings.CutPrefix(r.URL.Path, "/tarballs/"); ok {
			if data, ok := tarballs[strings.TrimSuffix(v, ".tgz")]; ok {
				w.Write(data)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"Not found"}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}
