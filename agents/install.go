package agents

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pmezard/go-difflib/difflib"

	"loams.dev/cli/internal/errs"
)

// InstallRequest is one `loams mcp install`.
type InstallRequest struct {
	Agent  string
	Scope  string // "" = the agent's default
	Stack  string // for the HTTP entry loams-<stack>
	MCPURL string // the stack's MCP endpoint; "" when it has no mcp engine
	// ServeArgs follow `loams mcp serve` in the entry: the global flags the
	// user installed under (--profile staging), so the agent's server
	// answers for the same profile and endpoint as the command did.
	ServeArgs []string
	DryRun    bool
	// AllowTemporaryBinary writes the entry even when loams runs from a
	// temporary or build-cache directory (`go run`), which will vanish.
	AllowTemporaryBinary bool
	// AbsolutePath writes the running binary's absolute path even in a
	// project file (which otherwise names `loams`, found on PATH).
	AbsolutePath bool
	// Skill, when set, is the SKILL.md written beside the entry for hosts
	// that read skills (--with-skill); commands renders it from the tool
	// descriptions (Skill in skill.go).
	Skill []byte
}

// Result says what install or uninstall did (or would do, on a dry run).
type Result struct {
	Agent    string     `json:"agent"`
	Scope    string     `json:"scope"`
	Via      string     `json:"via"` // cli | file
	Path     string     `json:"path"`
	Entries  []string   `json:"entries"`
	Changed  bool       `json:"changed"`
	Commands [][]string `json:"commands,omitempty"`
	Diff     string     `json:"diff,omitempty"`
	Backup   string     `json:"backup,omitempty"`
	Restored bool       `json:"restored,omitempty"` // uninstall gave back the original bytes
	DryRun   bool       `json:"dry_run"`
	// Command is what the loams entry runs (argv[0] is `loams` in a
	// project file meant for the whole team).
	Command []string `json:"command,omitempty"`
	// Skill is the skill file written, kept or removed (--with-skill).
	Skill *SkillResult `json:"skill,omitempty"`
	Notes []string     `json:"notes,omitempty"`
}

// Install registers loams (and the stack's HTTP endpoint) with a host.
// Entries that exist are edited in place (only the keys we own), so the
// user's additions survive; new ones go through the host's CLI when it has
// one that keeps the file intact, else into the file.
func Install(ctx context.Context, e Env, req InstallRequest) (*Result, error) {
	a, scope, err := Lookup(req.Agent, req.Scope)
	if err != nil {
		return nil, err
	}
	loc, err := e.location(a, scope)
	if err != nil {
		return nil, err
	}
	command, runs, note := e.entryCommand(loc, req.AbsolutePath)
	if !req.AllowTemporaryBinary {
		if err := e.checkStable(runs); err != nil {
			return nil, err
		}
	}
	entries := a.Entries(command, req.ServeArgs, req.Stack, req.MCPURL)
	res := &Result{Agent: a.Name, Scope: scope, Via: "file", Path: loc.Path, DryRun: req.DryRun, Command: entries[0].Command}
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	for _, en := range entries {
		res.Entries = append(res.Entries, en.Name)
	}
	if !req.DryRun {
		unlock, err := e.lockRecords(ctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	cf, err := openConfig(loc.Path, loc.Root, loc.MaxSize)
	if err != nil {
		return nil, err
	}
	servers, err := loc.decode(cf.data)
	if err != nil {
		return nil, unparseable(loc.Path, err)
	}
	// Which entries are missing, and does the host's CLI add them?
	var missing []Entry
	for _, en := range entries {
		if servers[en.Name] == nil {
			missing = append(missing, en)
		}
	}
	cli := ""
	if len(missing) > 0 && a.AddArgv != nil && !(a.CLIDropsComments && hasComments(cf.data, loc.Format)) {
		cli = e.findCLI(ctx, a)
	}
	// The file edit: existing entries (owned keys only), and new ones
	// when no CLI adds them.
	doc := cf.data
	for _, en := range entries {
		if cli != "" && servers[en.Name] == nil {
			res.Commands = append(res.Commands, a.AddArgv(scope, en))
			continue
		}
		v := a.entryValue(en)
		if doc, err = loc.upsert(doc, en.Name, v, a.owned(v)); err != nil {
			return nil, editError(loc.Path, err)
		}
	}
	edited := !bytes.Equal(doc, cf.data)
	if edited {
		if err := loc.verify(cf.data, doc, entries); err != nil {
			return nil, editError(loc.Path, err)
		}
		res.Diff = unifiedDiff(loc.Path, cf.data, doc)
	}
	if len(res.Commands) > 0 {
		res.Via = "cli"
	}
	res.Changed = edited || len(res.Commands) > 0
	recs, err := loadRecords(e.Loams.MCPInstalls())
	if err != nil {
		return nil, err
	}
	if req.DryRun {
		return res, e.withSkill(res, a, scope, loc, req, recs)
	}
	// The user's own identical entry is not ours to record.
	ours := res.Changed || recorded(recs, a.Name, scope, loc.Path)
	if res.Changed {
		if err := e.apply(ctx, res, cf, loc, doc, edited, cli, recs); err != nil {
			return nil, err
		}
	}
	if ours {
		for _, en := range entries {
			via := "file"
			if cli != "" && servers[en.Name] == nil {
				via = "cli"
			}
			recs.put(Record{Agent: a.Name, Scope: scope, Name: en.Name, Via: via, Path: loc.Path, Project: nestedProject(loc), Root: loc.Root,
				Command: en.Command, URL: en.URL, InstalledAt: e.now()})
		}
	}
	if err := e.withSkill(res, a, scope, loc, req, recs); err != nil {
		return nil, err
	}
	if !ours && res.Skill == nil {
		return res, nil
	}
	return res, recs.save(e)
}

// apply writes the edited file (after a backup of the original) and runs
// the host CLI's commands, and notes the file's new state.
func (e Env) apply(ctx context.Context, res *Result, cf *configFile, loc Location, doc []byte, edited bool, cli string, recs *Records) error {
	var err error
	if err := cf.writable(); err != nil {
		return err
	}
	if res.Backup, err = backupOnce(loc.Path, cf.data, cf.existed); err != nil {
		return err
	}
	missing := missingDirs(filepath.Dir(loc.Path))
	if edited {
		if err := cf.write(doc, loc.Project); err != nil {
			return err
		}
	}
	for _, argv := range res.Commands {
		if err := e.runCLI(ctx, cli, argv); err != nil {
			return err
		}
	}
	after, _, _ := readFile(loc.Path, loc.Root, loc.MaxSize)
	recs.noteWrite(loc.Path, cf.data, cf.existed, after, res.Backup)
	st := recs.Files[loc.Path]
	if !loc.hasContainer(cf.data) && loc.hasContainer(after) {
		st.CreatedContainer = true
	}
	if len(st.CreatedDirs) == 0 && !st.OriginalExisted {
		st.CreatedDirs = missing
	}
	recs.Files[loc.Path] = st
	return nil
}

// missingDirs lists dir and those of its parents that do not exist yet,
// deepest first: what a write into dir creates.
func missingDirs(dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			return out
		}
		out = append(out, d)
	}
}

// withSkill writes (or, on a dry run, plans) the skill file when asked.
func (e Env) withSkill(res *Result, a Agent, scope string, loc Location, req InstallRequest, recs *Records) error {
	if req.Skill == nil {
		return nil
	}
	sk, note, err := e.installSkill(a, scope, loc, req.Skill, recs, req.DryRun)
	if err != nil {
		return err
	}
	res.Skill = sk
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	return nil
}

// entryCommand is what the entry runs, and the binary that is. A project
// file is committed and shared, so it names `loams` (each teammate's own,
// found on PATH); a user file names this binary by its absolute path, as
// GUI hosts do not inherit the shell's PATH.
func (e Env) entryCommand(loc Location, absolute bool) (command, runs, note string) {
	if !loc.Project || absolute || e.Executable == "" {
		return e.Executable, e.Executable, ""
	}
	if p := lookPath("loams", e.Getenv("PATH")); p != "" {
		return "loams", p, ""
	}
	return e.Executable, e.Executable, "loams is not on PATH, so the shared entry names " + e.Executable +
		", which works on this machine only; put loams on PATH and run the command again so the entry says `loams`"
}

func nestedProject(loc Location) string {
	if len(loc.Container) == 3 {
		return loc.Container[1]
	}
	return ""
}

func recorded(recs *Records, agent, scope, path string) bool {
	for _, r := range recs.Installs {
		if r.Agent == agent && r.Scope == scope && r.Path == path {
			return true
		}
	}
	return false
}

func unparseable(path string, err error) error {
	return errs.New(errs.ConfigUnparseable, "fix the file (or move it aside) and run the command again; loams never rewrites a file it cannot parse",
		"%s does not parse: %v", path, err).With("path", path).Wrap(err)
}

func editError(path string, err error) error {
	var inline errInline
	if errors.As(err, &inline) {
		return errs.New(errs.FileConflict, "move it to its own ["+inline.table+"."+inline.name+"] table, or remove it, and run the command again",
			"%s: %v", path, err).With("path", path)
	}
	return unparseable(path, err)
}

// unifiedDiff is what --dry-run prints for a file edit.
func unifiedDiff(path string, before, after []byte) string {
	d, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: diffLines(before), B: diffLines(after),
		FromFile: path, ToFile: path, Context: 3,
	})
	return d
}

func (e Env) now() time.Time {
	if e.Now == nil {
		return time.Now().UTC()
	}
	return e.Now().UTC()
}

// diffLines splits into lines that all end in "\n" (difflib's SplitLines
// adds an empty last line to every file that ends in a newline).
func diffLines(b []byte) []string {
	lines := strings.SplitAfter(string(b), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	} else if n > 0 {
		lines[n-1] += "\n"
	}
	return lines
}
