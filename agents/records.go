package agents

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/filelock"
	"loams.dev/cli/internal/safefile"
)

// Records is $LOAMS_HOME/mcp-installs.json: every entry install wrote, so
// uninstall removes exactly those, and what each file held before we first
// touched it, so uninstall can give back the original bytes.
type Records struct {
	Installs []Record             `json:"installs"`
	Files    map[string]FileState `json:"files"`
	Skills   []SkillRecord        `json:"skills,omitempty"`
}

// Record is one entry written into one agent's config.
type Record struct {
	Agent   string `json:"agent"`
	Scope   string `json:"scope"`
	Name    string `json:"name"`
	Via     string `json:"via"` // cli | file
	Path    string `json:"path"`
	Project string `json:"project,omitempty"`
	// Root is the project a project-scope file must stay inside.
	Root        string    `json:"root,omitempty"`
	Command     []string  `json:"command,omitempty"`
	URL         string    `json:"url,omitempty"`
	InstalledAt time.Time `json:"installed_at"`
}

// FileState tracks a config file across our edits.
type FileState struct {
	OriginalExisted bool   `json:"original_existed"`
	OriginalSHA256  string `json:"original_sha256,omitempty"`
	Backup          string `json:"backup,omitempty"`
	// WrittenSHA256 is the file right after our last edit.
	WrittenSHA256 string `json:"written_sha256"`
	// OnlyOurs stays true while every edit started from the bytes our
	// previous edit left: then the original bytes can be restored whole.
	OnlyOurs bool `json:"only_ours"`
	// CreatedContainer: the servers object did not exist before our first
	// entry, so uninstall removes it again once it is empty.
	CreatedContainer bool `json:"created_container,omitempty"`
	// CreatedDirs are the directories our first write made (deepest
	// first, e.g. ~/.codex): uninstall removes them again when empty, or
	// the next init "detects" an agent that was never installed.
	CreatedDirs []string `json:"created_dirs,omitempty"`
}

func loadRecords(path string) (*Records, error) {
	r := &Records{Files: map[string]FileState{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, errs.New(errs.ConfigUnparseable, "fix or remove "+path+" (it only records what `loams mcp install` wrote)",
			"%s is not valid JSON: %v", path, err).With("path", path)
	}
	if r.Files == nil {
		r.Files = map[string]FileState{}
	}
	return r, nil
}

// lockRecords serialises installs and uninstalls: each reads, edits and
// saves mcp-installs.json (and a host's file) as one step, so parallel runs
// keep every record.
func (e Env) lockRecords(ctx context.Context) (func(), error) {
	if err := e.Loams.Ensure(); err != nil {
		return nil, err
	}
	return filelock.Lock(ctx, e.Loams.MCPInstalls()+".lock")
}

func (r *Records) save(e Env) error {
	if err := e.Loams.Ensure(); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	return safefile.Write(e.Loams.MCPInstalls(), append(b, '\n'), 0o600)
}

// put adds or replaces the record for the same agent, scope, name and path.
func (r *Records) put(rec Record) {
	for i, x := range r.Installs {
		if x.Agent == rec.Agent && x.Scope == rec.Scope && x.Name == rec.Name && x.Path == rec.Path {
			r.Installs[i] = rec
			return
		}
	}
	r.Installs = append(r.Installs, rec)
}

// noteWrite updates a file's state around one of our edits.
func (r *Records) noteWrite(path string, before []byte, beforeExisted bool, after []byte, backup string) {
	st, seen := r.Files[path]
	if !seen {
		st = FileState{OriginalExisted: beforeExisted, OnlyOurs: true, Backup: backup}
		if beforeExisted {
			st.OriginalSHA256 = hash(before)
		}
	} else if hash(before) != st.WrittenSHA256 {
		st.OnlyOurs = false // someone else edited it since our last write
	}
	st.WrittenSHA256 = hash(after)
	r.Files[path] = st
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// readFile returns a config file's bytes and whether it exists, read as
// openConfig reads (never a FIFO, a device or more than maxConfigSize).
func readFile(path, root string, limit int64) ([]byte, bool, error) {
	cf, err := openConfig(path, root, limit)
	if err != nil {
		return nil, false, err
	}
	return cf.data, cf.existed, nil
}

// backupOnce copies path to path.loams-backup the first time we edit it.
func backupOnce(path string, data []byte, existed bool) (string, error) {
	if !existed {
		return "", nil
	}
	b := path + ".loams-backup"
	if _, err := os.Stat(b); err == nil {
		return b, nil
	}
	return b, safefile.Write(b, data, safefile.Mode(path, 0o600))
}
