package project

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestPlanIgnore(t *testing.T) {
	_, err := exec.LookPath("git")
	hasGit := err == nil
	tests := []struct {
		name      string
		git       bool // make a real repository (needs git); else a bare .git dir
		gitignore *string
		want      string // .gitignore afterwards; "" = unchanged / absent
		updated   bool
	}{
		// Not a repository yet: ignored all the same, so `git init && git
		// add -A` later does not commit the key (issue 28).
		{name: "no repo", git: false, want: ".env.loams\n", updated: true},
		{name: "no repo, already listed", git: false, gitignore: ptr(".env.loams\n"), want: ".env.loams\n"},
		{name: "repo, no .gitignore", git: true, want: ".env.loams\n", updated: true},
		{name: "missing final newline", git: true, gitignore: ptr("node_modules"), want: "node_modules\n.env.loams\n", updated: true},
		{name: "crlf", git: true, gitignore: ptr("a\r\nb\r\n"), want: "a\r\nb\r\n.env.loams\r\n", updated: true},
		{name: "already ignored", git: true, gitignore: ptr("/.env.loams\n"), want: "/.env.loams\n"},
		{name: "ignored by glob", git: true, gitignore: ptr(".env*\n"), want: ".env*\n"},
		{name: "negated", git: true, gitignore: ptr(".env*\n!.env.loams\n"), want: ".env*\n!.env.loams\n.env.loams\n", updated: true},
	}
	for _, tt := range tests {
		for _, viaGit := range []bool{true, false} {
			if viaGit && !hasGit {
				continue
			}
			t.Run(tt.name, func(t *testing.T) {
				dir := t.TempDir()
				if tt.git {
					if viaGit {
						if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
							t.Fatalf("git init: %v %s", err, out)
						}
					} else {
						os.Mkdir(filepath.Join(dir, ".git"), 0o755)
					}
				}
				gi := filepath.Join(dir, ".gitignore")
				if tt.gitignore != nil {
					os.WriteFile(gi, []byte(*tt.gitignore), 0o644)
				}
				if !viaGit {
					t.Setenv("PATH", t.TempDir()) // no git: the plain read of .gitignore decides
				}
				edits, err := PlanIgnore(context.Background(), dir, filepath.Join(dir, ".env.loams"))
				if err != nil {
					t.Fatal(err)
				}
				if (len(edits) > 0) != tt.updated {
					t.Errorf("edits = %+v, want updated %v", edits, tt.updated)
				}
				for _, e := range edits {
					if err := e.Apply(); err != nil {
						t.Fatal(err)
					}
				}
				b, _ := os.ReadFile(gi)
				if string(b) != tt.want {
					t.Errorf(".gitignore = %q, want %q", b, tt.want)
				}
			})
		}
	}
}

func ptr(s string) *string { return &s }
