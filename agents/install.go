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
	"loams.dev/cli/internal/safefile"
)

// InstallRequest is one `loams mcp install`.
type InstallRequest struct {
	Agent  string
	Scope  string // "" = the agent's default
	Stack  string // for the HTTP entry loams-<stack>
	MCPURL string // the stack's MCP endpoint; "" when it has no mcp engine
	DryRun bool
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
}

// Install registers loams (and the stack's HTTP endpoint) with an agent.
func Install(ctx context.Context, e Env, req InstallRequest) (*Result, error) {
	a, scope, err := Lookup(req.Agent, req.Scope)
	if err != nil {
		return nil, err
	}
	loc, err := e.location(a, scope)
	if err != nil {
		return nil, err
	}
	entries := Entries(e.Executable, req.Stack, req.MCPURL)
	res := &Result{Agent: a.Name, Scope: scope, Path: loc.Path, DryRun: req.DryRun}
	for _, en := range entries {
		res.Entries = append(res.Entries, en.Name)
	}
	if cli := e.findCLI(ctx, a); cli != "" {
		res.Via = "cli"
		return res, e.installCLI(ctx, a, scope, loc, cli, entries, res)
	}
	if a.Name == "claude-code" && scope != ScopeProject {
		var cmds []string
		for _, en := range entries {
			cmds = append(cmds, strings.Join(addArgv(a, scope, en), " "))
		}
		return nil, errs.New(errs.ConfirmationRequired,
			"install Claude Code (`npm install -g @anthropic-ai/claude-code`) and run: "+strings.Join(cmds, " && ")+"; or use --scope project to write .mcp.json",
			"the %s scope of Claude Code is written by the `claude` CLI, which is not installed", scope).With("commands", cmds)
	}
	res.Via = "file"
	return res, e.installFile(a, scope, loc, entries, res)
}

func (e Env) installCLI(ctx context.Context, a Agent, scope string, loc Location, cli string, entries []Entry, res *Result) error {
	for _, en := range entries {
		stored, err := loc.current(en.Name)
		if err != nil {
			return unparseable(loc.Path, err)
		}
		if matches(stored, en) {
			continue
		}
		if stored != nil {
			res.Commands = append(res.Commands, removeArgv(a, scope, en.Name))
		}
		res.Commands = append(res.Commands, addArgv(a, scope, en))
	}
	res.Changed = len(res.Commands) > 0
	if res.DryRun || !res.Changed {
		return nil
	}
	recs, err := loadRecords(e.Loams.MCPInstalls())
	if err != nil {
		return err
	}
	before, existed, err := readFile(loc.Path)
	if err != nil {
		return err
	}
	if res.Backup, err = backupOnce(loc.Path, before, existed); err != nil {
		return err
	}
	for _, argv := range res.Commands {
		if err := e.runCLI(ctx, cli, argv); err != nil {
			return err
		}
	}
	after, _, _ := readFile(loc.Path)
	recs.noteWrite(loc.Path, before, existed, after, res.Backup)
	e.record(recs, a, scope, "cli", loc, entries)
	return recs.save(e)
}

func (e Env) installFile(a Agent, scope string, loc Location, entries []Entry, res *Result) error {
	before, existed, err := readFile(loc.Path)
	if err != nil {
		return err
	}
	doc := before
	for _, en := range entries {
		if loc.Format == "toml" {
			doc, err = tomlSet(doc, loc.Container, en.Name, en.tomlValues())
		} else {
			doc, err = jsonSet(doc, loc.Container, en.Name, en.jsonValue(a.Name))
		}
		if err != nil {
			return editError(loc.Path, err)
		}
	}
	res.Changed = !existed || !bytes.Equal(doc, before)
	if res.Changed {
		res.Diff = unifiedDiff(loc.Path, before, doc)
	}
	if res.DryRun {
		return nil
	}
	recs, err := loadRecords(e.Loams.MCPInstalls())
	if err != nil {
		return err
	}
	if res.Changed {
		if res.Backup, err = backupOnce(loc.Path, before, existed); err != nil {
			return err
		}
		if err := e.writeConfig(scope, loc.Path, doc); err != nil {
			return err
		}
		recs.noteWrite(loc.Path, before, existed, doc, res.Backup)
	} else if !recorded(recs, a.Name, scope, loc.Path) {
		return nil // the user's own identical entry: not ours to record
	}
	e.record(recs, a, scope, "file", loc, entries)
	return recs.save(e)
}

// writeConfig writes an agent config atomically: a new file is private at
// user scope and shareable at project scope; an existing one keeps its mode.
func (e Env) writeConfig(scope, path string, data []byte) error {
	mode, dirMode := os.FileMode(0o600), os.FileMode(0o700)
	if scope == ScopeProject {
		mode, dirMode = 0o644, 0o755
	}
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return err
	}
	if len(data) == 0 {
		return os.Remove(path)
	}
	return safefile.Write(path, data, safefile.Mode(path, mode))
}

func recorded(recs *Records, agent, scope, path string) bool {
	for _, r := range recs.Installs {
		if r.Agent == agent && r.Scope == scope && r.Path == path {
			return true
		}
	}
	return false
}

func (e Env) record(recs *Records, a Agent, scope, via string, loc Location, entries []Entry) {
	for _, en := range entries {
		recs.put(Record{Agent: a.Name, Scope: scope, Name: en.Name, Via: via, Path: loc.Path, Project: loc.Project,
			Command: en.Command, URL: en.URL, InstalledAt: e.now()})
	}
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
