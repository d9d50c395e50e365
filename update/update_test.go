package update

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/serverbin"
)

const sums = `0000000000000000000000000000000000000000000000000000000000000001  loams_0.2.0_linux_amd64.tar.gz
0000000000000000000000000000000000000000000000000000000000000002  loams_0.2.0_windows_amd64.zip
0000000000000000000000000000000000000000000000000000000000000003  loams_0.3.0-rc1_linux_amd64.tar.gz
0000000000000000000000000000000000000000000000000000000000000004  loams-0.2.0-linux-amd64.mcpb
`

func TestChecksumsNameTheRelease(t *testing.T) {
	c, err := ParseChecksums([]byte(sums), "x")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := c.Version(); !ok || v != "0.2.0" {
		t.Errorf("version %q %v (a pre-release is never offered)", v, ok)
	}
	if c[ArchiveName("v0.2.0", "windows", "amd64")] == "" || c[ArchiveName("0.2.0", "linux", "amd64")] == "" {
		t.Errorf("archive names do not match goreleaser's: %v", c)
	}
	if _, err := ParseChecksums([]byte("<html>not found</html>"), "x"); err == nil {
		t.Error("an HTML page parsed as checksums")
	}
}

func TestUpgradeCommands(t *testing.T) {
	for kind, want := range map[Kind]string{Homebrew: "brew upgrade --cask loams", GoBuild: "go install loams.dev/cli/cmd/loams@v0.2.0", Archive: "loams update"} {
		if got := strings.Join(UpgradeCommand(kind, "0.2.0"), " "); got != want {
			t.Errorf("%s: %q, want %q", kind, got, want)
		}
	}
}

// The notifier's day: the first run starts a check and says nothing; the
// run after the check says it once; not again that day, and again the
// next; nothing for an older or equal release.
func TestNotifierOncePerDay(t *testing.T) {
	h := home.Home{Dir: t.TempDir()}
	now := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	spawned := 0
	n := &Notifier{Home: h, Current: "0.1.0", Kind: Archive, Now: func() time.Time { return now }, Spawn: func() error { spawned++; return nil }}
	if line := n.Run(); line != "" || spawned != 1 {
		t.Fatalf("first run: %q, %d checks", line, spawned)
	}
	if n.Run(); spawned != 1 {
		t.Errorf("a second check started while the first runs")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(sums)) }))
	defer srv.Close()
	if err := BackgroundCheck(context.Background(), h, srv.URL+"/", &serverbin.Fetcher{}, func() time.Time { return now }); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	if line := n.Run(); line != "loams 0.2.0 is out (this is 0.1.0): run `loams update`" {
		t.Errorf("after the check: %q", line)
	}
	now = now.Add(time.Hour)
	if line := n.Run(); line != "" || spawned != 1 {
		t.Errorf("same day: %q, %d checks", line, spawned)
	}
	now = now.Add(CheckEvery)
	if line := n.Run(); line == "" || spawned != 2 {
		t.Errorf("next day: %q, %d checks", line, spawned)
	}
	n.Current = "0.2.0"
	now = now.Add(2 * CheckEvery)
	if line := n.Run(); line != "" {
		t.Errorf("up to date: %q", line)
	}
}
