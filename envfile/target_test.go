package envfile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
)

func stackFor(name string) Stack {
	return Stack{Name: name, Vars: []Var{{"LOAMS_URL", "http://127.0.0.1:1"}}, Key: secret.New("loams_k_" + name)}
}

// The Node app's .env.loams was written for nodeapp; an export that
// resolved dev must not re-point it (the first finding of the project issue).
func TestExportRefusesToRepointAnotherStacksFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".env.loams")
	now := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	if _, err := Export(context.Background(), stackFor("nodeapp"), Target{Write: p, Version: "1.0.0", Now: now}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(p)
	_, err := Export(context.Background(), stackFor("dev"), Target{Write: p, Version: "1.0.0", Now: now})
	e := errs.As(err)
	if e.Code != errs.EnvTargetMismatch || e.Details["file_target"] != "stack nodeapp" || e.Details["target"] != "stack dev" {
		t.Fatalf("want env_target_mismatch naming both, got %+v", e)
	}
	if !strings.Contains(e.Hint, "--force") || !strings.Contains(e.HintFor(true), `"force": true`) {
		t.Fatalf("hints must fit each face: %q / %q", e.Hint, e.HintFor(true))
	}
	after, _ := os.ReadFile(p)
	if string(after) != string(before) {
		t.Fatal("a refused export changed the file")
	}
	// The same target rewrites freely; Force re-points.
	if _, err := Export(context.Background(), stackFor("nodeapp"), Target{Write: p, Version: "1.0.1", Now: now.Add(time.Hour)}); err != nil {
		t.Fatalf("same target: %v", err)
	}
	if _, err := Export(context.Background(), stackFor("dev"), Target{Write: p, Version: "1.0.0", Now: now, Force: true}); err != nil {
		t.Fatalf("force: %v", err)
	}
	if got := FileTarget(p); got != "stack dev" {
		t.Fatalf("after force the file names %q", got)
	}
}

func TestMergeRefusesAnotherTargetsBlockUnlessForced(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".env")
	os.WriteFile(p, []byte("A=1\n"), 0o600)
	ctx := context.Background()
	if _, err := Export(ctx, stackFor("nodeapp"), Target{Merge: p}); err != nil {
		t.Fatal(err)
	}
	if _, err := Export(ctx, stackFor("dev"), Target{Merge: p}); !errs.Is(err, errs.EnvTargetMismatch) {
		t.Fatalf("want env_target_mismatch, got %v", err)
	}
	if _, err := Export(ctx, stackFor("dev"), Target{Merge: p, Force: true}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if strings.Contains(string(b), "nodeapp") || !strings.HasPrefix(string(b), "A=1\n") || !strings.Contains(string(b), "(stack dev)") {
		t.Fatalf("force must replace the old block and keep the rest:\n%s", b)
	}
}

func TestWrittenForReadsHeadersOfEveryShape(t *testing.T) {
	now := time.Now()
	for _, s := range []Stack{stackFor("a b"), {Name: "staging", Endpoint: "https://x.example:8443"}} {
		got, ok := writtenFor(s.header("0.0.0-dev", now))
		if !ok || got != s.Label() {
			t.Errorf("header of %s read back as %q", s.Label(), got)
		}
		if got, _ := writtenFor(s.blockBegin()); got != s.blockLabel() {
			t.Errorf("block of %s read back as %q", s.Label(), got)
		}
	}
	if _, ok := writtenFor("# my own comment"); ok {
		t.Error("a user's comment is no target")
	}
}
