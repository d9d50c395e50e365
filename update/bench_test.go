package update

import (
	"os/exec"
	"testing"
	"time"

	"loams.dev/cli/internal/home"
)

// What a command pays for the notice on a day with nothing to do: one
// small file read.
func BenchmarkNotifierNothingDue(b *testing.B) {
	h := home.Home{Dir: b.TempDir()}
	now := time.Now()
	if err := writeState(h, State{StartedAt: now, CheckedAt: now, Latest: "0.2.0", Notified: "0.2.0", NotifiedAt: now}); err != nil {
		b.Fatal(err)
	}
	n := &Notifier{Home: h, Current: "0.1.0", Kind: Archive, Now: func() time.Time { return now }, Spawn: func() error { b.Fatal("spawned"); return nil }}
	for b.Loop() {
		if n.Run() != "" {
			b.Fatal("said twice")
		}
	}
}

// Once a day: the notice, the state written, and a detached check started
// (here /bin/true, as cheap to start as loams itself).
func BenchmarkNotifierDailyRun(b *testing.B) {
	h := home.Home{Dir: b.TempDir()}
	day := time.Now()
	n := &Notifier{Home: h, Current: "0.1.0", Kind: Archive, Now: func() time.Time { return day }, Spawn: func() error {
		c := exec.Command("/bin/true")
		detach(c)
		if err := c.Start(); err != nil {
			return err
		}
		return c.Process.Release()
	}}
	for b.Loop() {
		day = day.Add(CheckEvery + time.Hour)
		if err := writeState(h, State{CheckedAt: day.Add(-CheckEvery), Latest: "0.2.0"}); err != nil {
			b.Fatal(err)
		}
		if n.Run() == "" {
			b.Fatal("no notice")
		}
	}
}
