package secret

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// realKeyring skips unless a real Secret Service is there to test against:
// .ci/steps/40-keyring.sh starts one and sets LOAMS_KEYRING_TEST=1.
func realKeyring(t *testing.T) *Keyring {
	t.Helper()
	if os.Getenv("LOAMS_KEYRING_TEST") == "" {
		t.Skip("LOAMS_KEYRING_TEST is unset: no real Secret Service to test against (.ci/steps/40-keyring.sh runs this)")
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		t.Skip("no session bus (DBUS_SESSION_BUS_ADDRESS unset): run under dbus-run-session with gnome-keyring-daemon")
	}
	kr := NewKeyring()
	if err := kr.Probe(context.Background()); err != nil {
		t.Fatalf("LOAMS_KEYRING_TEST is set but the keyring does not answer: %v", err)
	}
	return kr
}

// secretTool reads what go-keyring wrote with libsecret's own client, so
// the test does not only trust the library against itself.
func secretTool(t *testing.T, stack string) string {
	t.Helper()
	if _, err := exec.LookPath("secret-tool"); err != nil {
		t.Log("secret-tool not installed: skipping the cross-check")
		return "<unchecked>"
	}
	out, err := exec.Command("secret-tool", "lookup", "service", KeyringService, "username", KeyringUser(stack)).Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func TestKeyringRealSecretService(t *testing.T) {
	kr := realKeyring(t)
	ctx := context.Background()
	stack := "ktest-store"
	key, _ := Generate()
	if err := kr.Set(ctx, stack, key); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kr.Delete(ctx, stack) })
	got, err := kr.Get(ctx, stack)
	if err != nil || got.Reveal() != key.Reveal() {
		t.Fatalf("Get = %v; want the stored key", err)
	}
	if v := secretTool(t, stack); v != "<unchecked>" && v != key.Reveal() {
		t.Fatalf("secret-tool sees %d bytes, not the key loams stored", len(v))
	}
	if err := kr.Delete(ctx, stack); err != nil {
		t.Fatal(err)
	}
	if _, err := kr.Get(ctx, stack); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete = %v", err)
	}
	if v := secretTool(t, stack); v != "<unchecked>" && v != "" {
		t.Fatal("secret-tool still finds the key after Delete")
	}
	exerciseStore(t, kr)
}
