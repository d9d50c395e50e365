package agents

import (
	"bytes"
	"context"
	"os"
	"slices"
)

// UninstallRequest is one `loams mcp uninstall`.
type UninstallRequest struct {
	Agent  string
	Scope  string // "" = every scope recorded for the agent
	DryRun bool
}

// Uninstall removes exactly the entries mcp-installs.json says we wrote for
// the agent. A file that nobody else touched since gets its original bytes
// back (or is removed, if we created it).
func Uninstall(ctx context.Context, e Env, req UninstallRequest) ([]*Result, error) {
	a, _, err := Lookup(req.Agent, req.Scope)
	if err != nil {
		return nil, err
	}
	if !req.DryRun {
		unlock, err := e.lockRecords(ctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	recs, err := loadRecords(e.Loams.MCPInstalls())
	if err != nil {
		return nil, err
	}
	var mine, rest []Record
	for _, r := range recs.Installs {
		if r.Agent == a.Name && (req.Scope == "" || r.Scope == req.Scope) {
			mine = append(mine, r)
		} else {
			rest = append(rest, r)
		}
	}
	var results []*Result
	var paths []string
	for _, r := range mine {
		if !slices.Contains(paths, r.Path) {
			paths = append(paths, r.Path)
		}
	}
	for _, path := range paths {
		var these []Record
		for _, r := range mine {
			if r.Path == path {
				these = append(these, r)
			}
		}
		othersThere := slices.ContainsFunc(rest, func(r Record) bool { return r.Path == path })
		res, err := e.uninstallFile(ctx, a, these, recs.Files[path], othersThere, req.DryRun)
		if err != nil {
			return results, err
		}
		results = append(results, res)
		if !req.DryRun {
			if othersThere {
				if after, existed, _ := readFile(path, "", a.maxSize(these[0].Scope)); existed {
					st := recs.Files[path]
					st.WrittenSHA256 = hash(after)
					recs.Files[path] = st
				}
			} else {
				delete(recs.Files, path)
			}
		}
	}
	skills, err := e.uninstallSkills(a.Name, req.Scope, recs, req.DryRun)
	if err != nil {
		return results, err
	}
	results = append(results, skills...)
	if req.DryRun || len(mine) == 0 && len(skills) == 0 {
		return results, nil
	}
	recs.Installs = rest
	return results, recs.save(e)
}

func (e Env) uninstallFile(ctx context.Context, a Agent, these []Record, st FileState, othersThere, dryRun bool) (*Result, error) {
	first := these[0]
	res := &Result{Agent: a.Name, Scope: first.Scope, Via: first.Via, Path: first.Path, DryRun: dryRun}
	for _, r := range these {
		res.Entries = append(res.Entries, r.Name)
	}
	cf, err := openConfig(first.Path, first.Root, a.maxSize(first.Scope))
	if err != nil {
		return nil, err
	}
	current, existed := cf.data, cf.existed
	if !existed {
		return res, nil // already gone: nothing of ours is left there
	}
	// Only our edits happened since the original: give it back whole.
	if st.WrittenSHA256 != "" && st.OnlyOurs && !othersThere && hash(current) == st.WrittenSHA256 {
		var original []byte
		if st.OriginalExisted {
			if original, _, err = readFile(st.Backup, first.Root, a.maxSize(first.Scope)); err != nil || hash(original) != st.OriginalSHA256 {
				original = nil
			}
		}
		if !st.OriginalExisted || original != nil {
			res.Changed, res.Restored = true, true
			res.Diff = unifiedDiff(first.Path, current, original)
			if dryRun {
				return res, nil
			}
			if err := cf.write(original, false); err != nil {
				return nil, err
			}
			os.Remove(st.Backup) // identical to the file again
			if original == nil {
				for _, d := range st.CreatedDirs {
					if os.Remove(d) != nil { // not empty: someone else's files are there
						break
					}
				}
			}
			return res, nil
		}
	}
	loc := Location{Path: first.Path, Format: a.Format, Container: []string{a.Container}, Root: first.Root, MaxSize: a.maxSize(first.Scope)}
	if first.Project != "" {
		loc.Container = []string{"projects", first.Project, a.Container}
	}
	if first.Via == "cli" {
		if cli := e.findCLI(ctx, a); cli != "" && a.RemoveArgv != nil {
			for _, r := range these {
				if stored, _ := loc.current(r.Name); stored == nil {
					continue
				}
				res.Commands = append(res.Commands, a.RemoveArgv(r.Scope, r.Name))
			}
			res.Changed = len(res.Commands) > 0
			if dryRun {
				return res, nil
			}
			for _, argv := range res.Commands {
				if err := e.runCLI(ctx, cli, argv); err != nil {
					return nil, err
				}
			}
			return res, nil
		}
	}
	doc := current
	for _, r := range these {
		if doc, err = loc.remove(doc, r.Name); err != nil {
			return nil, editError(first.Path, err)
		}
	}
	if st.CreatedContainer {
		if doc, err = loc.dropEmptyContainer(doc); err != nil {
			return nil, editError(first.Path, err)
		}
	}
	res.Changed = !bytes.Equal(doc, current)
	if res.Changed {
		res.Diff = unifiedDiff(first.Path, current, doc)
	}
	if dryRun || !res.Changed {
		return res, nil
	}
	return res, cf.write(doc, false)
}
