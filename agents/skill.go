package agents

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"loams.dev/cli/internal/safefile"
)

// SkillResult says what happened to the skill file.
type SkillResult struct {
	Path string `json:"path"`
	// written | updated | unchanged | kept | removed | absent; a dry run
	// says what it would do: would write | would update | would remove.
	State string `json:"state"`
}

// wouldDo is a state as a dry run reports it.
func wouldDo(state string) string {
	switch state {
	case "written":
		return "would write"
	case "updated":
		return "would update"
	case "removed":
		return "would remove"
	}
	return state
}

// SkillRecord is a skill file install wrote, with the hash of what it
// wrote: a file that no longer has it was edited by the user and is kept.
type SkillRecord struct {
	Agent  string `json:"agent"`
	Scope  string `json:"scope"`
	Path   string `json:"path"`
	Root   string `json:"root,omitempty"`
	SHA256 string `json:"sha256"`
	// Dirs are the directories install created for the file, outermost
	// first (~/.copilot/skills, …/loams): uninstall removes them again
	// when they are empty, and nothing else.
	Dirs        []string  `json:"dirs,omitempty"`
	InstalledAt time.Time `json:"installed_at"`
}

func (r *Records) skill(agent, scope, path string) *SkillRecord {
	for i, s := range r.Skills {
		if s.Agent == agent && s.Scope == scope && s.Path == path {
			return &r.Skills[i]
		}
	}
	return nil
}

// installSkill writes content at the scope's skill path unless the file
// there is not ours (the user's own, or ours edited since): that one is
// kept, with a note.
func (e Env) installSkill(a Agent, scope string, loc Location, content []byte, recs *Records, dryRun bool) (*SkillResult, string, error) {
	sc, _ := a.scope(scope)
	if sc.Skill == nil || sc.Skill(e) == "" {
		written := "was written"
		if dryRun {
			written = "would be written"
		}
		return nil, a.Title + " reads no skill file at the " + scope + " scope; only the entry " + written, nil
	}
	path := sc.Skill(e)
	res := &SkillResult{Path: path}
	cf, err := openConfig(path, loc.Root, 0)
	if err != nil {
		return nil, "", err
	}
	rec := recs.skill(a.Name, scope, path)
	switch {
	case cf.existed && bytes.Equal(cf.data, content):
		res.State = "unchanged"
	case cf.existed && (rec == nil || hash(cf.data) != rec.SHA256):
		res.State = "kept"
		return res, path + " was not written by loams or was edited since; kept as it is (move it aside and run the command again for the current one)", nil
	case cf.existed:
		res.State = "updated"
	default:
		res.State = "written"
	}
	if dryRun {
		res.State = wouldDo(res.State)
		return res, "", nil
	}
	var created []string
	if rec != nil {
		created = rec.Dirs // still ours to remove on uninstall
	}
	if res.State != "unchanged" {
		made, err := createDirs(filepath.Dir(cf.target))
		if err != nil {
			return nil, "", safefile.Unreadable(path, err)
		}
		created = append(created, made...)
		if err := safefile.Write(path, content, safefile.Mode(cf.target, 0o644)); err != nil {
			return nil, "", err
		}
	}
	sr := SkillRecord{Agent: a.Name, Scope: scope, Path: path, Root: loc.Root, SHA256: hash(content), Dirs: created, InstalledAt: e.now()}
	if rec != nil {
		*rec = sr
	} else {
		recs.Skills = append(recs.Skills, sr)
	}
	return res, "", nil
}

// uninstallSkills removes the agent's skill files that still hold what
// loams wrote; an edited one is kept. The records of both are dropped.
func (e Env) uninstallSkills(agent, scope string, recs *Records, dryRun bool) ([]*Result, error) {
	var out []*Result
	var rest []SkillRecord
	for _, r := range recs.Skills {
		if r.Agent != agent || scope != "" && r.Scope != scope {
			rest = append(rest, r)
			continue
		}
		cf, err := openConfig(r.Path, r.Root, 0)
		if err != nil {
			return nil, err
		}
		sk := &SkillResult{Path: r.Path, State: "removed"}
		if dryRun {
			sk.State = wouldDo(sk.State)
		}
		res := &Result{Agent: agent, Scope: r.Scope, Via: "file", Path: r.Path, Entries: []string{}, Skill: sk, DryRun: dryRun}
		switch {
		case !cf.existed:
			sk.State = "absent"
		case hash(cf.data) != r.SHA256:
			sk.State = "kept"
			res.Notes = append(res.Notes, r.Path+" was edited since loams wrote it; kept")
		default:
			res.Changed = true
			if dryRun {
				break
			}
			if err := os.Remove(cf.target); err != nil {
				return nil, safefile.Unreadable(r.Path, err)
			}
			if r.Dirs == nil { // recorded before loams kept the directories
				os.Remove(filepath.Dir(cf.target))
			}
			for i := len(r.Dirs) - 1; i >= 0; i-- {
				os.Remove(r.Dirs[i]) // only when empty: a user's other skills stay
			}
		}
		out = append(out, res)
	}
	if !dryRun {
		recs.Skills = rest
	}
	return out, nil
}

// createDirs creates dir and its missing parents, and returns the ones it
// created, outermost first.
func createDirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		missing = append([]string{d}, missing...)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return missing, nil
}

// skillIn is a skill path under dir (…/skills/loams/SKILL.md).
func (e Env) skillIn(dir ...string) string {
	if len(dir) == 0 || strings.TrimSpace(dir[0]) == "" {
		return ""
	}
	return e.join(append(dir, "skills", "loams", "SKILL.md")...)
}
