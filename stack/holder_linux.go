package stack

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// procShowsUs reports whether /proc numbers processes as we do. Inside a
// PID namespace that did not mount its own /proc (unshare -p without
// --mount-proc, some sandboxes), /proc/<our child's pid> is another
// process or none, and every answer read from it would be wrong.
var procShowsUs = sync.OnceValue(func() bool {
	self, err := os.Readlink("/proc/self")
	return err == nil && self == strconv.Itoa(os.Getpid())
})

// holderOf finds the listener of a TCP port from /proc/net/tcp{,6} (the
// socket's inode) and /proc/*/fd (who has that socket open). Processes of
// other users hide their fds from non-root callers.
func holderOf(port int) holder {
	if !procShowsUs() {
		return holder{Unknown: "this /proc belongs to another PID namespace, so its process numbers are not ours"}
	}
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		listeningInodes(f, port, inodes)
	}
	if len(inodes) == 0 {
		return holder{Unknown: "no listening socket for it in /proc/net/tcp: it may be in use by a connection, or in another network namespace"}
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		fds, err := os.ReadDir(filepath.Join(p, "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(p, "fd", fd.Name()))
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			if inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] {
				pid, _ := strconv.Atoi(filepath.Base(p))
				return holder{PID: pid, Command: commandOf(p)}
			}
		}
	}
	return holder{Unknown: "loams could not tell which process holds it: it may belong to another user, or have just exited"}
}

// listeningInodes adds the inodes of sockets listening (state 0A) on port.
func listeningInodes(path string, port int, into map[string]bool) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	want := fmt.Sprintf(":%04X", port)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 9 && strings.HasSuffix(fields[1], want) && fields[3] == "0A" {
			into[fields[9]] = true
		}
	}
}

// commandOf is the program of /proc/PID: argv[0], else its comm.
func commandOf(proc string) string {
	if b, err := os.ReadFile(filepath.Join(proc, "cmdline")); err == nil && len(b) > 0 {
		arg0, _, _ := strings.Cut(string(b), "\x00")
		return arg0
	}
	b, _ := os.ReadFile(filepath.Join(proc, "comm"))
	return strings.TrimSpace(string(b))
}

// listensOn reports whether process pid holds a listening socket on port.
// known is false when /proc cannot tell (the socket is in another network
// namespace, or the process's fds are hidden from us).
func listensOn(pid, port int) (yes, known bool) {
	if !procShowsUs() {
		return false, false
	}
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		listeningInodes(f, port, inodes)
	}
	if len(inodes) == 0 {
		return false, false
	}
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(dir)
	if err != nil {
		// A process that has exited (or is a zombie waiting to be reaped)
		// holds nothing; only fds hidden from us leave the answer open.
		return false, gone(pid)
	}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join(dir, fd.Name()))
		if err == nil && inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] {
			return true, true
		}
	}
	return false, true
}

// gone reports whether pid has exited: no /proc entry, or a zombie.
func gone(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return os.IsNotExist(err)
	}
	// The state follows the command, which is in parentheses and may hold
	// spaces: "pid (comm) S ...".
	i := strings.LastIndexByte(string(b), ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}
