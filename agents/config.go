package agents

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// writable refuses a read-only file. The mode bits are checked, not the
// write itself: root may write anything, and an atomic rename would
// replace the file whatever its mode.
func (cf *configFile) writable() error {
	if cf.existed && cf.mode&0o200 == 0 {
		return errs.New(errs.Forbidden, "make it writable (chmod u+w "+cf.path+") if loams may edit it, then run the command again",
			"%s is read-only (mode %04o); loams does not replace it", cf.path, cf.mode).With("path", cf.path)
	}
	return nil
}

// write replaces the file atomically (through its symlink): a new file is
// private at user scope and shareable at project scope; an existing one
// keeps its mode. Empty data removes the file.
func (cf *configFile) write(data []byte, project bool) error {
	if err := cf.writable(); err != nil {
		return err
	}
	mode, dirMode := os.FileMode(0o600), os.FileMode(0o700)
	if project {
		mode, dirMode = 0o644, 0o755
	}
	if err := os.MkdirAll(filepath.Dir(cf.target), dirMode); err != nil {
		return err
	}
	if len(data) == 0 {
		return os.Remove(cf.target)
	}
	return safefile.Write(cf.target, data, safefile.Mode(cf.target, mode))
}

// decode reads every server entry of the location's container.
func (l Location) decode(doc []byte) (map[string]map[string]any, error) {
	if l.Format == FormatTOML {
		return tomlServers(doc, l.Container[0])
	}
	servers, err := jsonServers(doc, l.Container)
	if err == nil && l.Format == FormatJSON {
		_, err = parseJSONDoc(doc, true)
	}
	return servers, err
}

func (l Location) upsert(doc []byte, name string, v Object, owned []string) ([]byte, error) {
	if l.Format == FormatTOML {
		return tomlSet(doc, l.Container[0], name, v, owned)
	}
	return jsonUpsert(doc, l.Format == FormatJSON, l.Container, name, v, owned)
}

func (l Location) remove(doc []byte, name string) ([]byte, error) {
	if l.Format == FormatTOML {
		out, _, err := tomlRemove(doc, l.Container[0], name)
		return out, err
	}
	out, _, err := jsonRemove(doc, l.Format == FormatJSON, l.Container, name)
	return out, err
}

// hasContainer reports whether doc has the servers object (JSON only: a
// TOML table needs no container of its own).
func (l Location) hasContainer(doc []byte) bool {
	if l.Format == FormatTOML {
		return false
	}
	d, err := parseJSONDoc(doc, false)
	if err != nil {
		return false
	}
	levels, err := d.descend(l.Container)
	return err == nil && len(levels) > len(l.Container)
}

// dropEmptyContainer removes the servers object when nothing is left in it
// (no member, no comment): for a container our first install created.
func (l Location) dropEmptyContainer(doc []byte) ([]byte, error) {
	if l.Format == FormatTOML || len(l.Container) != 1 {
		return doc, nil
	}
	d, err := parseJSONDoc(doc, l.Format == FormatJSON)
	if err != nil {
		return nil, err
	}
	levels, err := d.descend(l.Container)
	if err != nil || len(levels) <= len(l.Container) {
		return doc, err
	}
	if c := levels[len(levels)-1].obj; len(c.Members) > 0 || len(bytes.TrimSpace(c.AfterExtra)) > 0 {
		return doc, nil
	}
	out, _, err := jsonRemove(doc, l.Format == FormatJSON, nil, l.Container[0])
	return out, err
}

// verify re-reads an edit: it must parse, run what entries run, and leave
// every other server as it was (a safety net under the byte-level edit).
func (l Location) verify(before, after []byte, entries []Entry) error {
	old, err := l.decode(before)
	if err != nil {
		return err
	}
	now, err := l.decode(after)
	if err != nil {
		return fmt.Errorf("the edit would not parse: %v", err)
	}
	for _, en := range entries {
		if !matches(now[en.Name], en) {
			return fmt.Errorf("the edit would not register %s", en.Name)
		}
		delete(old, en.Name)
		delete(now, en.Name)
	}
	if !reflect.DeepEqual(old, now) {
		return fmt.Errorf("the edit would change other servers")
	}
	return nil
}

// hasComments: does the file have comment lines a re-serialising CLI
// would drop?
func hasComments(doc []byte, format string) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		t := strings.TrimSpace(string(line))
		if format == FormatTOML && strings.HasPrefix(t, "#") || format != FormatTOML && (strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*")) {
			return true
		}
	}
	return false
}
