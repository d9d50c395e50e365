package project

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// executed are names of files a tool runs or sources, with the tool: the
// key must not become code (direnv evaluates .envrc in the user's shell on
// every cd). One row per tool, so adding one is adding a line.
var executed = map[string]string{
	".envrc": "direnv",
	// login shells source these; none ends in "rc" (that rule is below)
	".profile": "a login shell", ".bash_profile": "bash", ".bash_login": "bash", ".zprofile": "zsh",
	".zshenv": "zsh", ".zlogin": "zsh", ".login": "csh",
}

// executedPatterns catch the names the table cannot list: direnv's own
// variants (.envrc.local, sourced by source_env_if_exists) and any rc
// file (.bashrc, .zshrc, .env.bashrc: a shell or a tool reads it at
// start). A pattern (given the lower-cased name), then the tool.
var executedPatterns = []struct {
	match func(name string) bool
	tool  string
}{
	{func(n string) bool { return strings.HasPrefix(n, ".envrc") }, "direnv (source_env)"},
	{func(n string) bool { return strings.HasSuffix(n, "rc") }, "a shell or another tool at its start (an rc file)"},
}

// scriptExt make any file code, whatever its base name (`.env.local.sh`).
var scriptExt = map[string]string{
	".sh": "a shell", ".bash": "bash", ".zsh": "zsh", ".fish": "fish", ".nu": "nushell",
	".ps1": "PowerShell", ".bat": "cmd.exe", ".cmd": "cmd.exe",
	".js": "Node.js", ".cjs": "Node.js", ".mjs": "Node.js", ".ts": "a TypeScript runtime",
	".py": "Python", ".rb": "Ruby",
}

// CheckKeyFile refuses a file that must not receive the stack's key, before
// anything is written: one a tool executes (`forbidden`: the path is inside
// the project, so "outside" would mislead; loams forbids it by policy), one
// git tracks (`file_tracked`: the key would be committed), one that is
// read-only for its owner (`forbidden`: never replaced) or not a regular file.
// given is the path as the user or the agent wrote it; real is where it leads.
func CheckKeyFile(ctx context.Context, given, real string) error {
	if insideGit(real) {
		return errs.New(errs.Forbidden, "write the key to .env.loams in the project, not into git's own directory",
			"`%s` is inside .git, which git and its hooks own; loams does not put the key there", given).
			With("path", given).ForAgent(errs.ToolCall("env_export", map[string]any{"path": ".env.loams"}))
	}
	if tool, ok := executedBy(filepath.Base(real)); ok {
		return errs.New(errs.Forbidden,
			"write the key to .env.loams and load that file (with direnv: `dotenv_if_exists .env.loams` in .envrc)",
			"`%s` is executed by %s; loams does not put the key into a file a tool runs", given, tool).
			With("path", given).ForAgent(errs.ToolCall("env_export", map[string]any{"path": ".env.loams"}) + " and load that file (with direnv: `dotenv_if_exists .env.loams` in .envrc)")
	}
	if err := safefile.CheckWritable(real); err != nil {
		if errors.Is(err, safefile.ErrNotRegular) {
			return errs.New(errs.Usage, "pass a file name, e.g. .env.loams", "%s is not a regular file", given).With("path", given)
		}
		if errors.Is(err, safefile.ErrReadOnly) {
			return errs.New(errs.Forbidden, fmt.Sprintf("run `chmod u+w %s` if loams may change it, or write .env.loams instead", given),
				"`%s` is read-only (mode %04o); loams does not replace it", given, safefile.Mode(real, 0)).With("path", given).
				ForAgent(errs.ToolCall("env_export", map[string]any{"path": ".env.loams"}) + ", or " + errs.AskUser("chmod u+w "+given) + " if loams may change it")
		}
		return errs.New(errs.Forbidden, "check the permissions of "+given, "cannot write %s: %v", given, err).With("path", given).Wrap(err)
	}
	if _, err := os.Stat(real); errors.Is(err, fs.ErrNotExist) {
		return nil // a new file is not tracked (git add would need it to exist)
	}
	if Tracked(ctx, filepath.Dir(real), filepath.Base(real)) {
		return errs.New(errs.FileTracked,
			fmt.Sprintf("write the key to a git-ignored file such as .env.loams (the default), or stop tracking %s in git (keep it on disk) and add it to .gitignore", given),
			"`%s` is committed; the key would be too", given).With("path", given).
			ForAgent(errs.ToolCall("env_export", map[string]any{"path": ".env.loams"}) + " (git-ignored), or ask the user to stop tracking " + given + " in git")
	}
	return nil
}

// executedBy is the one rule for names a tool runs or sources. It compares
// case-insensitively (macOS and Windows file systems fold case, so
// `.ZSHENV` is .zshenv there, and `.env.SH` is a script anywhere), and a
// name ending in one of the table's names (`.env.zshenv`, `.env.profile`)
// is refused like the name itself.
func executedBy(name string) (string, bool) {
	name = strings.ToLower(name)
	for file, tool := range executed {
		if name == file || strings.HasSuffix(name, file) {
			return tool, true
		}
	}
	for _, p := range executedPatterns {
		if p.match(name) {
			return p.tool, true
		}
	}
	tool, ok := scriptExt[filepath.Ext(name)]
	return tool, ok
}

// insideGit reports a path with a .git element: the repository's own
// files (hooks run from there), never a place for the key. An element is
// .git as the file systems git itself guards against read it (git's
// is_hfs_dotgit and is_ntfs_dotgit): any case, trailing dots and spaces
// (Windows drops them), the 8.3 short name GIT~1, and the code points
// HFS+ ignores.
func insideGit(real string) bool {
	return slices.ContainsFunc(strings.Split(filepath.ToSlash(real), "/"), isDotGit)
}

func isDotGit(elem string) bool {
	e := strings.Map(func(r rune) rune {
		if hfsIgnorable(r) {
			return -1
		}
		return r
	}, strings.ToLower(elem))
	e = strings.TrimRight(e, ". ")
	return e == ".git" || e == "git~1"
}

// hfsIgnorable are the code points HFS+ drops from names when it compares
// them (zero-width joiners, direction marks, BOM).
func hfsIgnorable(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}
