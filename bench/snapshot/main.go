// Command snapshot measures `loams stack snapshot` and `loams stack create
// --from` (a clone) beside `cp -a` of the same tree on the same file
// system, interleaved in one run so machine noise hits all three alike.
// The tree is a stack's data: many small files and a few large ones. Each
// -dir is one file system (the default: a temp directory; bench/snapshot/run
// adds a loop-mounted XFS image that clones where it can mount one).
//
//	bench/snapshot/run        (builds as the release does, runs this)
package main

import (
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

func main() {
	loams := flag.String("loams", "", "the loams binary")
	server := flag.String("server", "", "the stand-in server binary (a stack needs one)")
	var dirs, skips multiFlag
	flag.Var(&dirs, "dir", "a directory on the file system to measure (repeatable)")
	flag.Var(&skips, "skip", "a row to print as skipped, LABEL=REASON (repeatable)")
	runs := flag.Int("runs", 3, "runs of each operation (the median is shown)")
	small := flag.Int("small", 20000, "small files (8 KiB each)")
	large := flag.Int("large", 4, "large files (128 MiB each)")
	flag.Parse()
	if *loams == "" || *server == "" || len(dirs) == 0 {
		fmt.Fprintln(os.Stderr, "usage: snapshot -loams BIN -server BIN -dir DIR [-dir DIR…]")
		os.Exit(2)
	}
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "file system\ttree\tcp -a\tfirst snapshot\tratio\trepeat snapshot\tratio\tclone\tratio\tmethod\tdowntime first / repeat\t\n")
	for _, d := range dirs {
		label, dir, _ := strings.Cut(d, "=")
		if dir == "" {
			label, dir = fsType(label), label
		}
		r, err := measure(*loams, *server, dir, *runs, *small, *large)
		if err != nil {
			fmt.Fprintf(tw, "%s\t(failed: %v)\t\t\t\t\t\t\t\t\t\t\n", label, err)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2fx\t%s\t%.2fx\t%s\t%.2fx\t%s\t%d / %d ms\t\n", label, size(r.bytes), rate(r.bytes, r.cp),
			rate(r.bytes, r.first), r.cp.Seconds()/r.first.Seconds(), rate(r.bytes, r.snap), r.cp.Seconds()/r.snap.Seconds(),
			rate(r.bytes, r.clone), r.cp.Seconds()/r.clone.Seconds(), r.method, r.downFirst, r.downRepeat)
	}
	for _, s := range skips {
		label, reason, _ := strings.Cut(s, "=")
		fmt.Fprintf(tw, "%s\t(skipped: %s)\t\t\t\t\t\t\t\t\t\t\n", label, reason)
	}
	tw.Flush()
	fmt.Println("\nrates are the tree's bytes over the median wall time of", *runs, "runs (warm page cache); ratio is cp -a's")
	fmt.Println("time over loams' (>= 1: as fast or faster). A snapshot includes its SHA-256 manifest: the first hashes")
	fmt.Println("every file, a repeat (median of the later runs) only what changed (none here). A snapshot or clone of a")
	fmt.Println("stopped stack, so no downtime is in those numbers. downtime is the downtime_ms of a snapshot of the")
	fmt.Println("running stack: first with an empty hash cache, then a repeat.")
}

type result struct {
	bytes                  int64
	cp, first, snap, clone time.Duration
	method                 string
	downFirst, downRepeat  int64 // downtime_ms of snapshots of the running stack
}

func measure(loams, server, dir string, runs, small, large int) (result, error) {
	root, err := os.MkdirTemp(dir, "loams-bench-snapshot-")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(root)
	env := append(os.Environ(), "LOAMS_HOME="+filepath.Join(root, "home"), "LOAMS_SECRETS=file", "CI=true",
		"LOAMS_SERVER_BINARY="+server, "NO_COLOR=1")
	sh := func(args ...string) (string, error) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env, cmd.Dir = env, root
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, out)
		}
		return string(out), nil
	}
	if _, err := sh(loams, "stack", "create", "src", "--no-start", "--port-base", "29000"); err != nil {
		return result{}, err
	}
	data := filepath.Join(root, "home", "stacks", "src", "data")
	bytes, err := writeTree(data, small, large)
	if err != nil {
		return result{}, err
	}
	timed := func(args ...string) (time.Duration, error) {
		_ = exec.Command("sync").Run() // the last run's writeback is not this one's cost
		start := time.Now()
		_, err := sh(args...)
		return time.Since(start), err
	}
	var cps, snaps, clones []time.Duration
	method := ""
	for i := range runs {
		cpDst := filepath.Join(root, fmt.Sprintf("cp-%d", i))
		d, err := timed("cp", "-a", data, cpDst)
		if err != nil {
			return result{}, err
		}
		cps = append(cps, d)
		snap := fmt.Sprintf("b%d", i)
		if d, err = timed(loams, "stack", "snapshot", "src", "--as", snap); err != nil {
			return result{}, err
		}
		snaps = append(snaps, d)
		clone := fmt.Sprintf("c%d", i)
		if d, err = timed(loams, "stack", "create", clone, "--from", "src", "--no-start"); err != nil {
			return result{}, err
		}
		clones = append(clones, d)
		if out, err := sh(loams, "stack", "create", "m"+clone, "--from", "src@"+snap, "--no-start", "-o", "json"); err == nil {
			if i := strings.Index(out, `"method": "`); i >= 0 {
				method = strings.SplitN(out[i+11:], `"`, 2)[0]
			}
		}
		for _, c := range [][]string{{"stack", "delete", clone, "--yes"}, {"stack", "delete", "m" + clone, "--yes"}, {"stack", "snapshot", "delete", "src", snap, "--yes"}} {
			if _, err := sh(append([]string{loams}, c...)...); err != nil {
				return result{}, err
			}
		}
		_ = os.RemoveAll(cpDst)
	}
	repeat := snaps
	if len(snaps) > 1 {
		repeat = snaps[1:]
	}
	r := result{bytes: bytes, cp: median(cps), first: snaps[0], snap: median(repeat), clone: median(clones), method: method}
	r.downFirst, r.downRepeat, err = downtimes(sh, loams, filepath.Join(root, "home", "stacks", "src", "snapshots", ".hashes.json"))
	return r, err
}

// downtimes snapshots the running stack twice, the first time with no
// hash cache, and returns each snapshot's downtime_ms.
func downtimes(sh func(...string) (string, error), loams, cache string) (int64, int64, error) {
	if _, err := sh(loams, "stack", "start", "src"); err != nil {
		return 0, 0, err
	}
	defer func() { _, _ = sh(loams, "stack", "stop", "src") }()
	_ = os.Remove(cache)
	var ms [2]int64
	for i := range ms {
		out, err := sh(loams, "stack", "snapshot", "src", "--as", fmt.Sprintf("live%d", i), "-o", "json")
		if err != nil {
			return 0, 0, err
		}
		var res struct {
			DowntimeMS int64 `json:"downtime_ms"`
		}
		if err := json.Unmarshal([]byte(out[max(strings.Index(out, "{"), 0):]), &res); err != nil { // past any stderr line
			return 0, 0, fmt.Errorf("snapshot output: %v: %s", err, out)
		}
		ms[i] = res.DowntimeMS
	}
	return ms[0], ms[1], nil
}

// writeTree is a stack's data: small files in many directories, a few
// large ones, a symlink. It returns the bytes written.
func writeTree(root string, small, large int) (int64, error) {
	var total int64
	buf := make([]byte, 8<<10)
	for i := range small {
		dir := filepath.Join(root, "tables", fmt.Sprintf("t%03d", i%200))
		if i < 200 {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return 0, err
			}
		}
		_, _ = rand.Read(buf[:64])
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%06d.parquet", i)), buf, 0o600); err != nil {
			return 0, err
		}
		total += int64(len(buf))
	}
	big := make([]byte, 128<<20)
	_, _ = rand.Read(big)
	for i := range large {
		big[0] = byte(i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("segment-%d.seg", i)), big, 0o600); err != nil {
			return 0, err
		}
		total += int64(len(big))
	}
	return total, os.Symlink("segment-0.seg", filepath.Join(root, "current"))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func rate(bytes int64, d time.Duration) string {
	return fmt.Sprintf("%.0f MB/s (%.2fs)", float64(bytes)/1e6/d.Seconds(), d.Seconds())
}

func size(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }

// fsType names the file system holding dir, from /proc/mounts' longest match.
func fsType(dir string) string {
	data, err := os.ReadFile("/proc/mounts")
	if err != nil {
		return dir
	}
	best, typ := "", "?"
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) > 2 && strings.HasPrefix(dir, f[1]) && len(f[1]) > len(best) {
			best, typ = f[1], f[2]
		}
	}
	return typ + " " + dir
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
