package update

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
	"loams.dev/cli/serverbin"
)

// How often the channel is asked, and retried after a failed check.
const (
	CheckEvery = 24 * time.Hour
	RetryEvery = time.Hour
	// CheckTimeout bounds the background check: a channel that hangs
	// costs a sleeping process for this long, never a command.
	CheckTimeout = 10 * time.Second
)

// State is $LOAMS_HOME/update-check.json: what the last background check
// found, and what was last said about it.
type State struct {
	StartedAt  time.Time `json:"started_at,omitzero"` // a check was spawned
	CheckedAt  time.Time `json:"checked_at,omitzero"` // a check finished
	Latest     string    `json:"latest,omitempty"`
	Error      string    `json:"error,omitempty"`
	NotifiedAt time.Time `json:"notified_at,omitzero"`
	Notified   string    `json:"notified,omitempty"` // the version last announced
}

// StatePath is where the state lives.
func StatePath(h home.Home) string { return filepath.Join(h.Dir, "update-check.json") }

// ReadState reads the state; a missing or broken file is a blank state,
// and so is anything but a regular file (a FIFO there must not hold every
// command, nor the detached check, forever).
func ReadState(path string) State {
	var s State
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return s
	}
	defer f.Close()
	if data, err := io.ReadAll(io.LimitReader(f, 1<<16)); err == nil {
		_ = json.Unmarshal(data, &s)
	}
	return s
}

// writeState replaces the state in one rename, without fsync: it is a
// cache (lost on a power cut, it is asked for again), and two fsyncs cost
// a command tens of milliseconds on a slow disk.
func writeState(h home.Home, s State) error {
	if err := h.Ensure(); err != nil {
		return err
	}
	data, _ := json.Marshal(s)
	tmp, err := os.CreateTemp(h.Dir, ".update-check-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), StatePath(h))
}

// Notifier is the once-a-day notice: it reads what the last background
// check found, says it (once a day), and starts the next check when one
// is due. It never touches the network itself.
type Notifier struct {
	Home    home.Home
	Current string // this loams' version
	Kind    Kind
	Now     func() time.Time
	// Spawn starts `loams update --background-check`, detached.
	Spawn func() error
}

// Run returns the notice to print ("" for none) and starts a check when
// one is due. Errors are dropped: a notice is never worth a failure.
func (n *Notifier) Run() string {
	now := n.Now()
	path := StatePath(n.Home)
	s := ReadState(path)
	changed := false
	line := ""
	if s.Latest != "" && Newer(s.Latest, n.Current) && (s.Notified != s.Latest || now.Sub(s.NotifiedAt) >= CheckEvery) {
		line = Notice(s.Latest, n.Current, n.Kind)
		s.NotifiedAt, s.Notified, changed = now, s.Latest, true
	}
	start := due(s, now)
	if start {
		s.StartedAt, changed = now, true
	}
	// Written before the spawn, never after: the detached check reads the
	// state and writes its answer, and a fast one (a local channel, a
	// loaded machine) finished before a later write here overwrote it.
	if changed {
		_ = writeState(n.Home, s)
	}
	if start && n.Spawn() != nil {
		s.StartedAt = time.Time{} // no check runs: the next command may try again
		_ = writeState(n.Home, s)
	}
	return line
}

// due: no check started within the hour, and the last one is a day old
// (an hour, when it failed).
func due(s State, now time.Time) bool {
	every := CheckEvery
	if s.Error != "" {
		every = RetryEvery
	}
	return now.Sub(s.StartedAt) >= RetryEvery && now.Sub(s.CheckedAt) >= every
}

// Notice is the line: the newer version and the command that upgrades
// this install.
func Notice(latest, current string, kind Kind) string {
	return fmt.Sprintf("loams %s is out (this is %s): %s", latest, current, UpgradeHint(kind, latest))
}

// BackgroundCheck asks the channel for the newest version and records it.
// It returns by CheckTimeout (and a little for the state file) whatever
// happens: nobody waits for a detached check, so nothing may hold it.
func BackgroundCheck(ctx context.Context, h home.Home, base string, f *serverbin.Fetcher, now func() time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- check(ctx, h, base, f, now) }()
	select {
	case err := <-done:
		return err
	case <-time.After(CheckTimeout + 2*time.Second):
		return fmt.Errorf("the update check did not finish within %s", CheckTimeout)
	}
}

func check(ctx context.Context, h home.Home, base string, f *serverbin.Fetcher, now func() time.Time) error {
	latest, err := Latest(ctx, base, f)
	s := ReadState(StatePath(h))
	s.CheckedAt, s.Error = now(), ""
	if err != nil {
		s.Error = err.Error()
	} else {
		s.Latest = latest
	}
	if werr := writeState(h, s); werr != nil {
		return werr
	}
	return err
}

// Latest is the newest version the channel's checksums.txt names.
func Latest(ctx context.Context, base string, f *serverbin.Fetcher) (string, error) {
	url := base + ChecksumsFile
	data, err := f.Get(ctx, url, 1<<20)
	if err != nil {
		return "", err
	}
	sums, err := ParseChecksums(data, url)
	if err != nil {
		return "", err
	}
	v, ok := sums.Version()
	if !ok {
		return "", fmt.Errorf("%s names no loams archive", url)
	}
	return v, nil
}
