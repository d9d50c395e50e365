package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/secret"
)

const remoteConfig = `[profile.staging]
endpoint = "https://loams.example.com"
namespace = "app"

[profile.staging.endpoints]
qdrant = "https://qdrant.loams.example.com"
es = "https://es.loams.example.com"
flight_sql = "grpc+tls://loams.example.com:8082"
pg = "postgres://loams.example.com:5432/default"
`

// remoteFactory is a Factory on profile staging with remoteKey stored.
func remoteFactory(t *testing.T, format output.Format) *Factory {
	t.Helper()
	f, _, _ := envFactory(t, format, map[string]string{"LOAMS_SECRETS": "file"})
	h, _ := f.Home()
	if err := os.MkdirAll(h.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.Config(), []byte(remoteConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := (secret.File{Home: h, Scope: secret.Profiles}).Set(context.Background(), "staging", secret.New(remoteKey)); err != nil {
		t.Fatal(err)
	}
	f.Globals.Profile, f.Globals.ProfileExplicit = "staging", true
	return f
}

func TestEnvExportRemoteProfileByteExact(t *testing.T) {
	f := remoteFactory(t, output.Table)
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{}`), 0o644)
	if err := runEnvExport(context.Background(), f, &envExportOptions{Format: "dotenv", Write: ".env.loams", ProjectDir: dir, NoGitignore: true}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, ".env.loams"))
	if err != nil {
		t.Fatal(err)
	}
	want := `# Written by loams ` + buildinfo.Get().Version + ` for profile "staging" (https://loams.example.com) at 2026-12-02T10:00:00Z. Do not commit.
LOAMS_URL=https://loams.example.com
LOAMS_ENDPOINT=https://loams.example.com
LOAMS_API_KEY=` + remoteKey + `
LOAMS_NAMESPACE=app
QDRANT_URL=https://qdrant.loams.example.com
ELASTICSEARCH_URL=https://es.loams.example.com
LOAMS_FLIGHT_SQL_URL=grpc+tls://loams.example.com:8082
LOAMS_PG_URL=postgres://loams.example.com:5432/default
`
	if string(got) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}

	// --merge: the block is named for the profile; bytes outside stay.
	envPath := filepath.Join(dir, ".env")
	_ = os.WriteFile(envPath, []byte("export PORT=3000\r\n# mine\r\n"), 0o640)
	if err := runEnvExport(context.Background(), f, &envExportOptions{Format: "dotenv", Merge: ".env", ProjectDir: dir, NoGitignore: true}); err != nil {
		t.Fatal(err)
	}
	merged, _ := os.ReadFile(envPath)
	block := strings.ReplaceAll(want[strings.Index(want, "\n")+1:], "\n", "\r\n")
	if string(merged) != "export PORT=3000\r\n# mine\r\n# >>> loams (profile staging) >>>\r\n"+block+"# <<< loams <<<\r\n" {
		t.Fatalf("merged:\n%q", merged)
	}
}

func TestEnvExportRemoteFormats(t *testing.T) {
	f := remoteFactory(t, output.JSON)
	ios := f.IO
	if err := runEnvExport(context.Background(), f, &envExportOptions{Format: "json"}); err != nil {
		t.Fatal(err)
	}
	out := ios.Out.(interface{ String() string }).String()
	var doc envExportJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Profile != "staging" || doc.Endpoint != "https://loams.example.com" || doc.Stack != "" ||
		doc.Variables["LOAMS_API_KEY"] != "<redacted: in .env.loams>" || doc.Variables["LOAMS_NAMESPACE"] != "app" || len(doc.Variables) != 8 {
		t.Fatalf("json: %s", out)
	}
	if strings.Contains(out, remoteKey[19:]) {
		t.Fatal("json output holds the key")
	}

	f2 := remoteFactory(t, output.Table)
	if err := runEnvExport(context.Background(), f2, &envExportOptions{Format: "shell"}); err != nil {
		t.Fatal(err)
	}
	shell := f2.IO.Out.(interface{ String() string }).String()
	if !strings.HasPrefix(shell, "export LOAMS_URL='https://loams.example.com'\nexport LOAMS_ENDPOINT='https://loams.example.com'\nexport LOAMS_API_KEY='"+remoteKey+"'\n") {
		t.Fatalf("shell:\n%s", shell)
	}

	// --stack still exports a local stack, whatever the profile says.
	f3 := remoteFactory(t, output.Table)
	err := runEnvExport(context.Background(), f3, &envExportOptions{Stack: "dev", Format: "dotenv", Source: oneStack().source})
	if err != nil || !strings.Contains(f3.IO.Out.(interface{ String() string }).String(), "LOAMS_STACK=dev") {
		t.Fatalf("--stack dev: %v", err)
	}
}

func TestEnvExportRemoteWithoutKeyIsUnauthenticated(t *testing.T) {
	f := remoteFactory(t, output.Table)
	h, _ := f.Home()
	_ = (secret.File{Home: h, Scope: secret.Profiles}).Delete(context.Background(), "staging")
	err := runEnvExport(context.Background(), f, &envExportOptions{Format: "dotenv"})
	if !errs.Is(err, errs.Unauthenticated) || !strings.Contains(errs.As(err).Hint, "loams login --with-api-key --profile staging") {
		t.Fatalf("err = %v", err)
	}
	if out := f.IO.Out.(interface{ String() string }).String(); out != "" {
		t.Fatalf("printed %q", out)
	}
}

// A config.toml others can write could point the endpoint at their host:
// the key is not read, let alone written or sent.
func TestRemoteKeyRefusedWhenConfigIsWritableByOthers(t *testing.T) {
	f := remoteFactory(t, output.Table)
	h, _ := f.Home()
	if err := os.Chmod(h.Config(), 0o666); err != nil {
		t.Fatal(err)
	}
	err := runEnvExport(context.Background(), f, &envExportOptions{Format: "dotenv"})
	if e := errs.As(err); e.Code != errs.UnsafePermissions || e.ExitCode() != 8 || !strings.Contains(e.Hint, "chmod 600 "+h.Config()) {
		t.Fatalf("err = %v", err)
	}
	if out := f.IO.Out.(interface{ String() string }).String(); out != "" {
		t.Fatalf("printed %q", out)
	}
}
