package secret

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// fakeKeyring is an in-memory KeyringAPI that can fail or freeze.
type fakeKeyring struct {
	mu     sync.Mutex
	m      map[string]string
	fail   error
	freeze chan struct{} // when non-nil, every call blocks until it is closed
}

func newFakeKeyring() *fakeKeyring { return &fakeKeyring{m: map[string]string{}} }

func (f *fakeKeyring) wait() error {
	if f.freeze != nil {
		<-f.freeze
	}
	return f.fail
}

func (f *fakeKeyring) Get(service, user string) (string, error) {
	if err := f.wait(); err != nil {
		return "", err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.m[service+"|"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (f *fakeKeyring) Set(service, user, pw string) error {
	if err := f.wait(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[service+"|"+user] = pw
	return nil
}

func (f *fakeKeyring) Delete(service, user string) error {
	if err := f.wait(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.m[service+"|"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(f.m, service+"|"+user)
	return nil
}

func testHome(t *testing.T) home.Home {
	return home.Home{Dir: t.TempDir()}
}

// exerciseStore checks the Store contract every implementation shares.
func exerciseStore(t *testing.T, s Store) {
	ctx := context.Background()
	if _, err := s.Get(ctx, "dev"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get of a missing key = %v, want ErrNotFound", err)
	}
	k, _ := Generate()
	if err := s.Set(ctx, "dev", k); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "dev")
	if err != nil || got.Reveal() != k.Reveal() {
		t.Fatalf("Get = %v, %v; want the key that was set", got.KeyID(), err)
	}
	if _, err := s.Get(ctx, "other"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("keys must be per stack: %v", err)
	}
	if err := s.Delete(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "dev"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete = %v", err)
	}
	if err := s.Delete(ctx, "dev"); err != nil {
		t.Fatalf("deleting an absent key must succeed: %v", err)
	}
}

func TestStores(t *testing.T) {
	t.Parallel()
	stores := map[string]func(t *testing.T) Store{
		"memory":  func(*testing.T) Store { return NewMemory() },
		"file":    func(t *testing.T) Store { return File{Home: testHome(t)} },
		"keyring": func(*testing.T) Store { return &Keyring{API: newFakeKeyring(), Timeout: time.Second} },
		"auto": func(t *testing.T) Store {
			return &Auto{Keyring: &Keyring{API: newFakeKeyring(), Timeout: time.Second}, File: File{Home: testHome(t)}}
		},
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			exerciseStore(t, mk(t))
		})
	}
}

func TestFileStoreModes(t *testing.T) {
	t.Parallel()
	h := testHome(t)
	// A pre-existing, too-open directory is tightened before the key is written.
	dir := filepath.Join(h.Stack("dev"), "secrets")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	k, _ := Generate()
	if err := (File{Home: h}).Set(context.Background(), "dev", k); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "api_key"): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s has mode %o, want %o", path, got, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("secrets dir holds %d entries, want only api_key (no temp files left)", len(entries))
	}
}

func TestKeyringTimeout(t *testing.T) {
	t.Parallel()
	fk := newFakeKeyring()
	fk.freeze = make(chan struct{})
	t.Cleanup(func() { close(fk.freeze) })
	kr := &Keyring{API: fk, Timeout: 50 * time.Millisecond}
	ctx := context.Background()
	calls := map[string]func() error{
		"get":    func() error { _, err := kr.Get(ctx, "dev"); return err },
		"set":    func() error { return kr.Set(ctx, "dev", New("x")) },
		"delete": func() error { return kr.Delete(ctx, "dev") },
		"probe":  func() error { return kr.Probe(ctx) },
	}
	for name, call := range calls {
		done := make(chan error, 1)
		go func() { done <- call() }()
		select {
		case err := <-done:
			if !errs.Is(err, errs.KeyringUnavailable) {
				t.Errorf("%s on a frozen keyring = %v, want keyring_unavailable", name, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s on a frozen keyring did not return", name)
		}
	}
	// A frozen keyring in auto mode falls back to the file store.
	var notices []string
	s, err := open(ctx, ModeAuto, testHome(t), kr, func(n string) { notices = append(notices, n) })
	if err != nil || s.Backend() != "file" {
		t.Fatalf("auto with a frozen keyring = %v, %v; want the file store", s, err)
	}
	if len(notices) != 1 {
		t.Errorf("auto fallback printed %d notices, want 1", len(notices))
	}
}

func TestKeyringErrorsMapped(t *testing.T) {
	t.Parallel()
	fk := newFakeKeyring()
	fk.fail = errors.New(`exec: "dbus-launch": executable file not found in $PATH`)
	kr := &Keyring{API: fk, Timeout: time.Second}
	_, err := kr.Get(context.Background(), "dev")
	e := errs.As(err)
	if e.Code != errs.KeyringUnavailable || e.Hint == "" {
		t.Fatalf("unreachable keyring = %+v, want keyring_unavailable with a hint", e)
	}
}

func TestOpenModes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	broken := newFakeKeyring()
	broken.fail = errors.New("The name org.freedesktop.secrets was not provided by any .service files")
	tests := []struct {
		mode     string
		api      *fakeKeyring
		backend  string
		code     errs.Code
		notices  int
		touchKey bool
	}{
		{mode: "auto", api: newFakeKeyring(), backend: "keyring"},
		{mode: "", api: newFakeKeyring(), backend: "keyring"},
		{mode: "auto", api: broken, backend: "file", notices: 1},
		{mode: "keyring", api: newFakeKeyring(), backend: "keyring"},
		{mode: "keyring", api: broken, code: errs.KeyringUnavailable},
		{mode: "file", api: broken, backend: "file"},
		{mode: "vault", api: newFakeKeyring(), code: errs.Usage},
	}
	for _, tt := range tests {
		var notices int
		s, err := open(ctx, tt.mode, testHome(t), &Keyring{API: tt.api, Timeout: time.Second}, func(string) { notices++ })
		if tt.code != "" {
			if !errs.Is(err, tt.code) {
				t.Errorf("mode %q: err = %v, want %s", tt.mode, err, tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("mode %q: %v", tt.mode, err)
			continue
		}
		if s.Backend() != tt.backend || notices != tt.notices {
			t.Errorf("mode %q: backend %s with %d notices, want %s with %d", tt.mode, s.Backend(), notices, tt.backend, tt.notices)
		}
	}
}

func TestFileModeNeverTouchesKeyring(t *testing.T) {
	t.Parallel()
	fk := newFakeKeyring()
	fk.freeze = make(chan struct{}) // any keyring call would block the test
	defer close(fk.freeze)
	s, err := open(context.Background(), ModeFile, testHome(t), &Keyring{API: fk, Timeout: time.Hour}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exerciseStore(t, s)
}

func TestAutoFindsAndDeletesFileKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := testHome(t)
	old, _ := Generate()
	// A key stored while the keyring was unavailable...
	if err := (File{Home: h}).Set(ctx, "dev", old); err != nil {
		t.Fatal(err)
	}
	a := &Auto{Keyring: &Keyring{API: newFakeKeyring(), Timeout: time.Second}, File: File{Home: h}}
	got, err := a.Get(ctx, "dev")
	if err != nil || got.Reveal() != old.Reveal() {
		t.Fatalf("auto must find a key left in the file store: %v", err)
	}
	// ...is gone from both places after Delete.
	if err := a.Delete(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if _, err := (File{Home: h}).Get(ctx, "dev"); !errors.Is(err, ErrNotFound) {
		t.Errorf("file copy survived Delete: %v", err)
	}
}

func TestResolveMode(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "LOAMS_SECRETS" {
				return v
			}
			return ""
		}
	}
	for _, tt := range []struct{ profile, env, want string }{
		{"", "", "auto"}, {"file", "", "file"}, {"file", "keyring", "keyring"}, {"", "file", "file"},
	} {
		got, err := ResolveMode(tt.profile, env(tt.env))
		if err != nil || got != tt.want {
			t.Errorf("ResolveMode(%q, LOAMS_SECRETS=%q) = %q, %v; want %q", tt.profile, tt.env, got, err, tt.want)
		}
	}
	if _, err := ResolveMode("", env("vault")); !errs.Is(err, errs.Usage) {
		t.Errorf("LOAMS_SECRETS=vault = %v, want usage", err)
	}
}

func TestProfileScopeKeepsKeysApartFromStacks(t *testing.T) {
	ctx := context.Background()
	h := testHome(t)
	fk := newFakeKeyring()
	stacks := &Keyring{API: fk, Timeout: time.Second}
	profiles := &Keyring{API: fk, Timeout: time.Second, Scope: Profiles}
	a, b := New("loams_aaaaaaaaaaaa_"+strings.Repeat("a", 32)), New("loams_bbbbbbbbbbbb_"+strings.Repeat("b", 32))
	if err := stacks.Set(ctx, "dev", a); err != nil {
		t.Fatal(err)
	}
	if err := profiles.Set(ctx, "dev", b); err != nil {
		t.Fatal(err)
	}
	if got, _ := fk.Get(KeyringService, "profile/dev/api_key"); got != b.Reveal() {
		t.Fatal("the profile key is not under profile/dev/api_key")
	}
	if got, _ := stacks.Get(ctx, "dev"); got.Reveal() != a.Reveal() {
		t.Fatal("the profile key replaced the stack key")
	}

	f := File{Home: h, Scope: Profiles}
	if err := f.Set(ctx, "staging", b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(h.Dir, "profiles", "staging", "secrets", "api_key")
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v %v", path, fi, err)
	}
	if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
		t.Fatalf("secrets dir mode %v", di.Mode().Perm())
	}
	if _, err := (File{Home: h}).Get(ctx, "staging"); !errors.Is(err, ErrNotFound) {
		t.Fatal("a stack named like the profile sees its key")
	}
	s, err := OpenProfiles(ctx, ModeFile, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, "staging"); err != nil || got.Reveal() != b.Reveal() {
		t.Fatalf("OpenProfiles file store: %v", err)
	}
	for _, bad := range []string{"../stacks/dev", "a/b", "..", ""} {
		if err := s.Set(ctx, bad, b); !errs.Is(err, errs.Usage) {
			t.Fatalf("Set(%q) = %v", bad, err)
		}
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "stacks")); err == nil {
		t.Fatal("a profile name escaped into stacks/")
	}
}

func TestProfileKeyRefusedWhenOthersCanRedirectIt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	ctx := context.Background()
	h := testHome(t)
	key := New("loams_aaaaaaaaaaaa_" + strings.Repeat("a", 32))
	s, err := OpenProfiles(ctx, ModeFile, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set(ctx, "staging", key); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.Config(), []byte("[profile.staging]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "staging"); err != nil {
		t.Fatalf("safe paths: %v", err)
	}
	for _, p := range []string{h.Config(), filepath.Join(h.Dir, "profiles", "staging", "secrets")} {
		fi, _ := os.Stat(p)
		if err := os.Chmod(p, fi.Mode().Perm()|0o022); err != nil {
			t.Fatal(err)
		}
		_, err := s.Get(ctx, "staging")
		if !errs.Is(err, errs.UnsafePermissions) || errs.As(err).Details["path"] != p {
			t.Fatalf("%s group/world-writable: %v", p, err)
		}
		_ = os.Chmod(p, fi.Mode().Perm())
	}
}
