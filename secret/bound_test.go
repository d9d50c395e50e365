package secret

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
)

// A profile key and its origin are one record of the store: written,
// read and deleted together, in the keyring and in the 0600 file alike.
func TestBoundKeyKeepsItsOriginInTheSameRecord(t *testing.T) {
	ctx := context.Background()
	h := testHome(t)
	key := New("loams_aaaaaaaaaaaa_" + strings.Repeat("a", 32))
	b := Bound{Origin: "https://loams.example.com:443", Key: key}
	fk := newFakeKeyring()
	stores := map[string]BoundStore{
		"file":    profileStore{Store: File{Home: h, Scope: Profiles}, home: h},
		"keyring": profileStore{Store: &Keyring{API: fk, Timeout: time.Second, Scope: Profiles}, home: h},
	}
	for name, s := range stores {
		t.Run(name, func(t *testing.T) {
			if err := s.SetBound(ctx, "staging", b); err != nil {
				t.Fatal(err)
			}
			got, err := s.GetBound(ctx, "staging")
			if err != nil || got.Origin != b.Origin || got.Key.Reveal() != key.Reveal() {
				t.Fatalf("GetBound = %q, %v", got.Origin, err)
			}
			if k, err := s.Get(ctx, "staging"); err != nil || k.Reveal() != key.Reveal() {
				t.Fatalf("Get is the bare key: %v", err)
			}
			var raw string
			if name == "file" {
				data, _ := os.ReadFile(filepath.Join(h.Dir, "profiles", "staging", "secrets", "api_key"))
				raw = string(data)
			} else {
				raw, _ = fk.Get(KeyringService, "profile/staging/api_key")
			}
			var rec boundRecord
			if err := json.Unmarshal([]byte(raw), &rec); err != nil || rec.Origin != b.Origin || rec.Key != key.Reveal() {
				t.Fatalf("stored record %v: %v", rec.Origin, err)
			}
			if err := s.Delete(ctx, "staging"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.GetBound(ctx, "staging"); err != ErrNotFound {
				t.Fatalf("after Delete: %v", err)
			}
			// A bare key (older loams) has no origin.
			if err := s.Set(ctx, "staging", key); err != nil {
				t.Fatal(err)
			}
			if got, err := s.GetBound(ctx, "staging"); err != nil || got.Origin != "" || got.Key.Reveal() != key.Reveal() {
				t.Fatalf("bare key: %q %v", got.Origin, err)
			}
		})
	}
	// A damaged record is an integrity failure that does not quote it.
	f := File{Home: h, Scope: Profiles}
	if err := f.Set(ctx, "broken", Secret{value: `{"origin":"https://x:443","key":"loams_` + strings.Repeat("b", 20)}); err != nil {
		t.Fatal(err)
	}
	_, err := stores["file"].GetBound(ctx, "broken")
	if !errs.Is(err, errs.SecretMissing) || strings.Contains(errs.As(err).Message, "bbbb") {
		t.Fatalf("damaged record: %v", err)
	}
}
