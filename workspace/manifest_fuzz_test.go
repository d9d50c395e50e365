package workspace

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"loams.dev/cli/internal/tomlkey"
)

// Any loams.toml the reader accepts is edited (or refused) so that the
// result reads back with [dev] stack set and every other value as it was;
// removing the key again leaves the rest as it was too. Nothing panics or
// hangs on any input.
func FuzzManifestEdit(f *testing.F) {
	for _, s := range []string{
		"",
		"[dev]\nstack = \"a\"\n",
		"[functions]\nnote = \"\"\"\n[dev]\n\"\"\"\n",
		"[ \"dev\" ] # c\r\nprofile = 'p'\r\n[x]\r\ny = [\r\n[1],\r\n]\r\n",
		"dev.profile = \"p\"\n",
		"\ufeffdev.profile = \"p\" # mine\r\ndev.x = \"\"\"\n1\n\"\"\"\r\n[x]\r\n",
		"[dev]\nstack = \"\"\"\nold\"\"\"\nprofile = \"p\"\n",
		"[dev]\nprofile = \"x]\\n[profile.default]\\n#\"\n",
		"a = {b = {c = [1, {d = 2}]}}\n[[dev2]]\n[dev]\n",
		// TOML 1.1, which the decoder reads: escapes Go does not know, and
		// inline tables over lines with a trailing comma.
		"\"[\\e\" = \"\\x41\"\nx = 1\n",
		"[\"d\\x65v\"]\nstack = \"a\"\n",
		"t = {\n  a = 1, # [dev]\n  b = \"]\",\n}\n[dev]\nprofile = \"p\"\n",
	} {
		f.Add([]byte(s))
	}
	const path = "/project/loams.toml"
	f.Fuzz(func(t *testing.T, doc []byte) {
		before, err := parseManifest(path, doc)
		if err != nil {
			return
		}
		out, err := setDevKey(path, doc, "stack", "app")
		if err != nil {
			return // refused: nothing is written
		}
		after, err := parseManifest(path, out)
		if err != nil || after.Stack != "app" || after.Profile != before.Profile || !reflect.DeepEqual(after.Unknown, before.Unknown) {
			t.Fatalf("set: %+v %v\n%q\n%q", after, err, doc, out)
		}
		if devTwice(out) && !devTwice(doc) {
			t.Fatalf("set defined dev both by dotted keys and by a [dev] header, which strict TOML refuses:\n%q\n%q", doc, out)
		}
		if !sameExceptDev(t, doc, out, "stack") {
			t.Fatalf("set changed more than [dev] stack:\n%q\n%q", doc, out)
		}
		back := removeDevKey(out, "stack")
		removed, err := parseManifest(path, back)
		if err != nil || removed.Stack != "" || removed.Profile != before.Profile {
			t.Fatalf("remove: %+v %v\n%q", removed, err, back)
		}
	})
}

// sameExceptDev decodes both documents and compares them without [dev] key.
func sameExceptDev(t *testing.T, a, b []byte, key string) bool {
	var da, db map[string]any
	if _, err := toml.Decode(string(a), &da); err != nil {
		t.Fatal(err)
	}
	if _, err := toml.Decode(string(b), &db); err != nil {
		t.Fatal(err)
	}
	for _, d := range []map[string]any{da, db} {
		if dev, ok := d["dev"].(map[string]any); ok {
			delete(dev, key)
			if len(dev) == 0 {
				delete(d, "dev")
			}
		}
	}
	return reflect.DeepEqual(da, db)
}

// devTwice reports a document that defines dev by top-level dotted keys
// and again by a [dev] header: BurntSushi/toml accepts it, TOML 1.0 (and
// the server's parser) does not.
func devTwice(doc []byte) bool {
	lines, err := tomlkey.Scan(doc, tomlkey.MaxDepth)
	if err != nil {
		return false
	}
	dotted, header := false, false
	top := true
	for _, l := range lines {
		if l.Header != nil {
			top = false
			header = header || !l.Array && len(l.Header) == 1 && l.Header[0] == "dev"
		}
		dotted = dotted || top && len(l.Key) >= 2 && l.Key[0] == "dev"
	}
	return dotted && header
}

// removeDevKey deletes the [dev] key line set wrote, as the scan finds it:
// set and then this must give back the document, so the scan must find
// every line set writes where set wrote it.
func removeDevKey(doc []byte, key string) []byte {
	lines, err := scanLines(doc)
	if err != nil {
		return doc
	}
	i := devLine(lines, key) - 1
	if i < 0 {
		return doc
	}
	return []byte(strings.Join(slices.Delete(textsOf(lines), i, valueStop(lines, i)), ""))
}
