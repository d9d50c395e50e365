package serverbin_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/internal/testkit/testrelease"
	"loams.dev/cli/serverbin"
)

// The hostile review: --variant became part of the install path, so
// `--variant ../../../../tmp/victimdir` renamed and deleted a directory
// outside LOAMS_HOME, `--variant .` deleted a sibling variant and
// `--variant ..` was an internal error. Each case must leave every file
// where it was and answer with a coded error that is not internal.

// standInBinary writes the stand-in server (0.4.1) for --from installs.
func standInBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	if err := testbin.WriteExecutable(bin, testrelease.StandIn(t, "0.4.1")); err != nil {
		t.Fatal(err)
	}
	return bin
}

// victim is a directory with one file that no install may touch.
func victim(t *testing.T, dir string) func() {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "precious.txt")
	if err := os.WriteFile(keep, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if data, err := os.ReadFile(keep); err != nil || string(data) != "keep me\n" {
			t.Errorf("the install touched %s: %v %q", keep, err, data)
		}
	}
}

func wantRefused(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("installed; want a coded refusal")
	}
	e := errs.As(err)
	if e.Code == errs.Internal || e.Hint == "" {
		t.Fatalf("want a coded refusal with a hint, got %v (%s, hint %q)", err, e.Code, e.Hint)
	}
}

func TestInstallVariantTraversalDeletesNothingOutside(t *testing.T) {
	t.Parallel()
	bin := standInBinary(t)
	w := newInstaller(t, nil)
	outside := filepath.Join(filepath.Dir(w.h.Dir), "victimdir")
	check := victim(t, outside)
	// servers/<version>/<variant>: three .. climb out of LOAMS_HOME.
	rel, _ := filepath.Rel(filepath.Join(serverbin.ServersDir(w.h), "0.4.1"), outside)
	_, err := w.in.Install(context.Background(), serverbin.InstallOptions{From: bin, Variant: rel})
	wantRefused(t, err)
	check()
	if e := errs.As(err); e.Code != errs.Usage {
		t.Errorf("a malformed variant is usage, got %s", e.Code)
	}
}

func TestInstallVariantDotKeepsOtherVariants(t *testing.T) {
	t.Parallel()
	bin := standInBinary(t)
	w := newInstaller(t, nil)
	if _, err := w.in.Install(context.Background(), serverbin.InstallOptions{From: bin, Variant: "full"}); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(serverbin.ServersDir(w.h), "0.4.1", "full", "loams")
	for _, variant := range []string{".", "./", "full/..", "..", "../0.4.1", "a/b", "Full", "-x", "x y", ""} {
		if variant == "" {
			continue // "" is the default, standard
		}
		_, err := w.in.Install(context.Background(), serverbin.InstallOptions{From: bin, Variant: variant})
		wantRefused(t, err)
		if _, err := os.Stat(full); err != nil {
			t.Fatalf("--variant %q removed the installed full variant: %v", variant, err)
		}
	}
	if got := serverbin.Current(w.h); got != full {
		t.Errorf("current moved to %q", got)
	}
}

// A manifest is the server project's word, but it is fetched from a URL a
// mirror controls: an artifact whose variant is a path is a bad manifest,
// and nothing is written outside the version's directory.
func TestInstallManifestVariantTraversalRefused(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{Variant: "../../../../victimdir"})
	w := newInstaller(t, rel, rel.PublicKey)
	check := victim(t, filepath.Join(filepath.Dir(w.h.Dir), "victimdir"))
	_, err := w.in.Install(context.Background(), serverbin.InstallOptions{Variant: "../../../../victimdir"})
	wantRefused(t, err)
	check()
	w.nothingInstalled(t)
}

// A well-formed variant the release does not have names what it has.
func TestInstallVariantMustBeInManifest(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	w := newInstaller(t, rel, rel.PublicKey)
	_, err := w.in.Install(context.Background(), serverbin.InstallOptions{Variant: ".."})
	wantRefused(t, err)
	if e := errs.As(err); e.Code != errs.Usage {
		t.Errorf("a malformed variant is usage, got %s", e.Code)
	}
	w.nothingInstalled(t)
	if rel.Requests.Load() != 0 {
		t.Errorf("downloaded for a bad variant")
	}
}
