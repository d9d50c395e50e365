package stack

import (
	"os"
	"path/filepath"

	"loams.dev/cli/internal/home"
)

// RecordRun writes server.pid for this very process, which is about to
// become the server (`stack run` execs it: the pid and the process start
// time stay the same). So a stack a service manager runs is described,
// listed and stopped like one `stack start` started.
func (sv *Supervisor) RecordRun(name string) error {
	s, err := Load(sv.Home, name)
	if err != nil {
		return err
	}
	pid := os.Getpid()
	return writePid(s.PidPath(), pidFile{PID: pid, StartTime: startTime(pid), StartedAt: sv.now().UTC()})
}

// OpenLog rotates the stack's server.log and opens it for appending: for
// `stack run --log`, and before a service manager (which opens the log
// itself) starts the stack again.
func OpenLog(h home.Home, name string) (*os.File, error) {
	s, err := Load(h, name)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(s.LogPath()), 0o700); err != nil {
		return nil, err
	}
	if err := rotateLog(s.LogPath()); err != nil {
		return nil, err
	}
	return os.OpenFile(s.LogPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}
