//go:build unix

package commands

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"loams.dev/cli/internal/testkit/testbin"
)

// ttyProc is loams running on a real pseudo-terminal: Ctrl-C there is
// the terminal's SIGINT to the foreground process, as a person sends it.
type ttyProc struct {
	cmd     *exec.Cmd
	term    *os.File
	mu      sync.Mutex
	out     strings.Builder
	changed chan struct{} // a token whenever output arrives or the process ends
	exited  chan struct{}
	drained chan struct{} // the terminal has no more output (loams and its children closed it)
	err     error
}

func startTTY(t *testing.T, env []string, dir string, args ...string) *ttyProc {
	t.Helper()
	cmd := exec.Command(testbin.Loams(t), args...)
	cmd.Env, cmd.Dir = append(env, "TERM=dumb"), dir
	term, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	p := &ttyProc{cmd: cmd, term: term, changed: make(chan struct{}, 1), exited: make(chan struct{}), drained: make(chan struct{})}
	go func() {
		defer close(p.drained)
		buf := make([]byte, 4096)
		for {
			n, err := term.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			p.poke()
			if err != nil {
				return
			}
		}
	}()
	go func() { p.err = cmd.Wait(); close(p.exited); p.poke() }()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Kill()
			<-p.exited
		}
		term.Close()
	})
	return p
}

func (p *ttyProc) poke() {
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

func (p *ttyProc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// ttyPatience bounds a wait for text on the terminal: loams stopped at a
// prompt the test does not expect would otherwise hold `go test` until its
// own timeout, with nothing said about where. A hang guard, not a speed
// target: far above what any prompt takes, even under -race.
const ttyPatience = 2 * time.Minute

// waitFor waits until the terminal shows s; loams ending first, or
// showing something else for ttyPatience, fails the test with what it showed.
func (p *ttyProc) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(ttyPatience)
	for !strings.Contains(p.output(), s) {
		select {
		case <-p.exited:
			if !strings.Contains(p.output(), s) {
				t.Fatalf("loams ended before showing %q:\n%s", s, p.output())
			}
		case <-deadline:
			t.Fatalf("loams did not show %q in %s; the terminal shows:\n%s", s, ttyPatience, p.output())
		case <-p.changed:
		}
	}
}

func (p *ttyProc) send(t *testing.T, keys string) {
	t.Helper()
	if _, err := p.term.Write([]byte(keys)); err != nil {
		t.Fatal(err)
	}
}

// wait waits for loams to end and its last output to be read.
func (p *ttyProc) wait() int {
	<-p.exited
	<-p.drained
	return p.exitCode()
}

// interrupt presses Ctrl-C and returns the exit code and how long loams
// took to end after it. The test's own timeout bounds the wait.
func (p *ttyProc) interrupt(t *testing.T) (int, time.Duration) {
	t.Helper()
	at := time.Now()
	p.send(t, "\x03")
	<-p.exited
	took := time.Since(at)
	t.Logf("Ctrl-C to exit: %s", took)
	return p.wait(), took
}

func (p *ttyProc) exitCode() int {
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	if p.err != nil {
		return -1
	}
	return 0
}

// gone reports whether pid is no more (a zombie waiting for its reaper
// counts as gone: it holds no port and runs nothing).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(data), ") ")
	return strings.HasPrefix(rest, "Z")
}

// noReleases is a release channel with nothing published (404), so a
// terminal's install offer fails here as it does today for real.
func noReleases(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}
