package update

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
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
	for kind, want := range map[Kind]string{Homebrew: "brew upgrade --cask loams", GoBuild: "", Archive: "loams update"} {
		if got := strings.Join(UpgradeCommand(kind, "0.2.0"), " "); got != want {
			t.Errorf("%s: %q, want %q", kind, got, want)
		}
	}
}

// A Go build is rebuilt from its clone: the module proxy does not serve
// loams.dev/cli yet (README, Install), so no hint offers `go install
// loams.dev/cli/cmd/loams@v…` as the way (it had, and was refused).
func TestAGoBuildIsRebuiltFromItsClone(t *testing.T) {
	got := Notice("0.2.0", "0.1.0", GoBuild)
	if want := "loams 0.2.0 is out (this is 0.1.0): in your clone of loams run `git fetch --tags && git checkout v0.2.0 && go install ./cmd/loams`"; !strings.HasPrefix(got, want) {
		t.Errorf("notice %q\nwant it to start %q", got, want)
	}
	if strings.Contains(got, "`go install "+Module+"@v") {
		t.Errorf("the notice offers the module path the proxy does not serve: %q", got)
	}
	if got := UpgradeHint(GoBuild, ""); !strings.Contains(got, "git checkout $(git describe --tags --abbrev=0 origin/HEAD) && go install ./cmd/loams") {
		t.Errorf("newest tag: %q", got)
	}
	if got := UpgradeHint(Homebrew, "0.2.0"); got != "run `brew upgrade --cask loams`" {
		t.Errorf("homebrew: %q", got)
	}
}

// A release with no archive for this platform says to build that release
// from a clone, not `go install loams.dev/cli/cmd/loams@v0.2.0`.
func TestNoArchiveForThisPlatformNamesTheCloneBuild(t *testing.T) {
	list := "0000000000000000000000000000000000000000000000000000000000000001  loams_0.2.0_plan9_mips.tar.gz\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(list)) }))
	defer srv.Close()
	dir := t.TempDir()
	// The running binary (the update lock checks it is the one at Exe);
	// the refusal comes before anything is staged beside it.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(exe)
	getenv := func(k string) string {
		if k == "LOAMS_CLI_RELEASES_URL" {
			return srv.URL + "/"
		}
		return ""
	}
	u := &Updater{Home: home.Home{Dir: filepath.Join(dir, "home")}, Getenv: getenv, Fetcher: &serverbin.Fetcher{},
		Exe: exe, Current: "0.1.0", Warn: func(string) {}, Now: time.Now}
	_, err = u.Update(context.Background(), Options{AllowUnsigned: true})
	e := errs.As(err)
	if e == nil || e.Code != errs.PlatformUnsupported {
		t.Fatalf("want platform_unsupported, got %v", err)
	}
	if want := "build it from a clone: `git clone " + Repository + " && cd loams && git checkout v0.2.0 && go install ./cmd/loams`"; e.Hint != want {
		t.Errorf("hint %q\nwant %q", e.Hint, want)
	}
	if after, _ := os.Stat(exe); !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the running binary %s was changed", exe)
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

// A detached check that finishes before the notifier has written its own
// state (a fast local channel, a loaded machine) keeps its answer: the
// notifier writes "started" before it spawns, never after. It wrote after,
// over the check's answer, and with "started" recorded no check ran again
// for an hour (CI's -race run waited ten minutes for that answer).
func TestAFastCheckIsNotOverwritten(t *testing.T) {
	h := home.Home{Dir: t.TempDir()}
	now := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(sums)) }))
	defer srv.Close()
	n := &Notifier{Home: h, Current: "0.1.0", Kind: Archive, Now: func() time.Time { return now }, Spawn: func() error {
		// the child, done before Spawn returns
		return BackgroundCheck(context.Background(), h, srv.URL+"/", &serverbin.Fetcher{}, func() time.Time { return now })
	}}
	n.Run()
	if s := ReadState(StatePath(h)); s.CheckedAt.IsZero() || s.Latest != "0.2.0" {
		t.Fatalf("the check's answer was lost: %+v", s)
	}
}

// A check that cannot be spawned leaves no "started" behind, so the next
// run tries again instead of waiting an hour.
func TestAFailedSpawnIsNotRecordedAsStarted(t *testing.T) {
	h := home.Home{Dir: t.TempDir()}
	now := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	tries := 0
	n := &Notifier{Home: h, Current: "0.1.0", Kind: Archive, Now: func() time.Time { return now },
		Spawn: func() error { tries++; return errors.New("no executable") }}
	n.Run()
	n.Run()
	if s := ReadState(StatePath(h)); !s.StartedAt.IsZero() || tries != 2 {
		t.Fatalf("after a failed spawn: %+v, %d tries", s, tries)
	}
}
