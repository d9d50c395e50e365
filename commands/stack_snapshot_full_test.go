//go:build linux

package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// On a disk too small for the copy, snapshot and clone stop before the
// first byte with disk_full (exit 7), naming the bytes needed and free,
// and leave nothing behind.
func TestSnapshotOnAFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system for LOAMS_HOME needs root")
	}
	home := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", home).CombinedOutput(); err != nil {
		t.Skipf("cannot mount tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", home).Run() })
	env := append(cliEnv(t), "LOAMS_HOME="+home)
	if _, errOut, code := loams(t, env, "stack", "create", "dev", "--no-start", "--port-base", portBase(t)); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	if err := os.WriteFile(filepath.Join(home, "stacks", "dev", "data", "table.bin"), bytes.Repeat([]byte{7}, 4<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"stack", "snapshot", "dev"}, {"stack", "create", "copy", "--from", "dev"}} {
		_, errOut, code := loams(t, env, append(args, "-o", "json")...)
		var doc struct {
			Error struct {
				Code    string         `json:"code"`
				Details map[string]any `json:"details"`
			} `json:"error"`
		}
		_ = json.Unmarshal([]byte(errOut), &doc)
		needed, _ := doc.Error.Details["bytes_needed"].(float64)
		free, _ := doc.Error.Details["bytes_free"].(float64)
		if code != 7 || doc.Error.Code != "disk_full" || needed < 4<<20 || free <= 0 || free >= needed {
			t.Errorf("%v: exit %d %s", args, code, errOut)
		}
	}
	if got := staging(t, filepath.Join(home, "stacks")); len(got) > 0 {
		t.Errorf("left behind: %v", got)
	}
	if _, err := os.Stat(filepath.Join(home, "stacks", "copy")); err == nil {
		t.Error("a refused clone left a stack")
	}
}
