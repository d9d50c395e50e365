package commands

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/testkit/testbin"
)

// TestEveryHintNamesRealCommandsAndFlags reads every errs.New hint in the
// module's Go source, and every string that mentions `loams …`, and checks
// the commands and flags they name exist (bare flags in a hint: on some
// command; TestHintsInContext checks where).
func TestEveryHintNamesRealCommandsAndFlags(t *testing.T) {
	m := newMentionChecker()
	root := filepath.Join("..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "bench" || d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.CallExpr:
				if isErrsNew(n) && len(n.Args) >= 2 {
					hint := literalText(n.Args[1])
					checked++
					for _, p := range m.check(hint, nil) {
						t.Errorf("%s: hint %q: %s", fset.Position(n.Pos()), hint, p)
					}
					return false
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					s, _ := strconv.Unquote(n.Value)
					if strings.Contains(s, "`loams ") {
						checked++
						for _, p := range m.check(s, nil) {
							if !strings.Contains(p, "is not a flag of") { // bare flags: only hints are held to that
								t.Errorf("%s: %q: %s", fset.Position(n.Pos()), s, p)
							}
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d hints and mentions found: the walk is broken", checked)
	}
}

func isErrsNew(c *ast.CallExpr) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "errs" && sel.Sel.Name == "New"
}

// literalText joins the string literals of an expression (a + b + "…"),
// leaving a placeholder for what is computed.
func literalText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, _ := strconv.Unquote(e.Value)
		return s
	case *ast.BinaryExpr:
		return literalText(e.X) + literalText(e.Y)
	case *ast.CallExpr:
		// fmt.Sprintf("…", …): the format, whose verbs stop a mention.
		if len(e.Args) > 0 {
			return literalText(e.Args[0])
		}
	case *ast.ParenExpr:
		return literalText(e.X)
	}
	return "<computed>"
}

// TestHintsInContext runs the errors a newcomer meets (the among
// them) through the binary, in a directory that is no project, and checks
// that every flag a hint names exists on the command that printed it.
func TestHintsInContext(t *testing.T) {
	t.Parallel()
	m := newMentionChecker()
	bin := testbin.Loams(t)
	tests := [][]string{
		{"mcp", "install", "--agent", "cursor", "--scope", "project"},
		{"mcp", "install", "--agent", "claude-code", "--scope", "project", "--dry-run"},
		{"init", "--yes", "--no-agent"},
		{"init"},
		{"stack", "logs", "--tail", "3"},
		{"stack", "describe"},
		{"stack", "start"},
		{"stack", "create", "Bad_Name"},
		{"stack", "stop", "dev"}, // (delete of a missing stack succeeds: it is idempotent)
		{"stack", "create"},
		{"env", "export", "--name", "search"},
		{"env", "export", "--stack", "nope"},
		{"mcp", "serve", "--name", "dev"},
		{"configure", "get", "nope"},
		{"configure", "set", "output", "yaml"},
		{"docs", "snippet", "--engine", "qdrant", "--language", "cobol"},
		{"docs", "snippet", "--engine", "qdrant"},
		{"pkg", "add"},
		{"pkg", "add", "leftpad"},
		{"stack", "strat"},
		{"--verbos", "version"},
		{"stack", "list", "--outptu", "json"},
	}
	for _, argv := range tests {
		t.Run(strings.Join(argv, " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cmd := exec.Command(bin, append([]string{"-o", "json"}, argv...)...)
			cmd.Dir = dir
			cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "LOAMS_HOME=" + filepath.Join(dir, "home"), "LOAMS_SECRETS=file", "CI=true"}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Run(); err == nil {
				t.Fatalf("expected an error")
			}
			var doc struct {
				Error struct{ Code, Message, Hint string }
			}
			if err := json.Unmarshal([]byte(stderr.String()), &doc); err != nil {
				t.Fatalf("stderr is no error object: %v %q", err, stderr.String())
			}
			if doc.Error.Hint == "" {
				t.Fatalf("no hint: %+v", doc.Error)
			}
			ctx := m.root
			for _, a := range argv {
				if sub := ctx.Command(a); sub != nil {
					ctx = sub
				} else if !strings.HasPrefix(a, "-") {
					break
				}
			}
			for _, p := range m.check(doc.Error.Hint, ctx) {
				t.Errorf("%s: hint %q: %s", doc.Error.Code, doc.Error.Hint, p)
			}
		})
	}
}

// TestFlagSuggestionsWalk mistypes every flag of every command (one letter
// dropped) and checks the suggestion is that very flag.
func TestFlagSuggestionsWalk(t *testing.T) {
	m := newMentionChecker()
	var walk func(c *cli.Command)
	walk = func(c *cli.Command) {
		names := m.flags(c)
		for _, fl := range c.Flags {
			name := fl.Names()[0]
			if len(name) < 4 {
				continue
			}
			typo := name[:len(name)-1]
			if got := suggestFlag(typo, names); got != name && !m.hasFlag(c, typo) {
				t.Errorf("%s: --%s suggests --%s, want --%s", c.FullName(), typo, got, name)
			}
		}
		var subs []string
		for _, s := range c.Commands {
			subs = append(subs, s.Name)
		}
		for _, s := range c.Commands {
			if len(s.Name) >= 4 {
				if got := suggest(s.Name[:len(s.Name)-1], subs); got != s.Name {
					t.Errorf("%s %s: suggests %q", c.FullName(), s.Name[:len(s.Name)-1], got)
				}
			}
			walk(s)
		}
		// Every synonym a command can suggest is one of its flags.
		for _, typed := range []string{"tail", "n", "name", "stack", "format", "json", "force", "dir", "cwd", "project"} {
			if m.hasFlag(c, typed) {
				continue
			}
			if got := suggestFlag(typed, names); got != "" && !m.hasFlag(c, got) {
				t.Errorf("%s: --%s suggests --%s, which it lacks", c.FullName(), typed, got)
			}
		}
	}
	walk(m.root)
}
