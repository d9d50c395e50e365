package commands

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
)

// configureCompletions shapes urfave's built-in completion command into the
// spec's `loams completions bash|zsh|fish|powershell`: our own bash script,
// and a JSON object when --output json is on the command line.
func configureCompletions(f *Factory, c *cli.Command) {
	c.Hidden = false
	c.Usage = "Print a shell completion script"
	c.Description = describe("Source the script to complete loams commands and flags in your shell. The bash\n"+
		"script needs neither the bash-completion package nor bash 4. With --output json\n"+
		"the script comes inside a JSON object ({\"shell\", \"script\"}).",
		"loams completions zsh > \"${fpath[1]}/_loams\"",
		"echo 'eval \"$(loams completions bash)\"' >> ~/.bashrc   # bash 3.2 (macOS) and later",
		"loams completions fish > ~/.config/fish/completions/loams.fish",
		"loams completions powershell >> $PROFILE")
	for _, sub := range c.Commands {
		if sub.Name == "pwsh" {
			sub.Name, sub.Aliases = "powershell", []string{"pwsh"}
		}
		sub.Usage = "Print the " + sub.Name + " completion script"
		sub.Description = describe("", "loams completions "+sub.Name, "loams completions "+sub.Name+" --output json")
		if strings.HasPrefix(sub.Name, "power") {
			sub.Usage = "Print the PowerShell completion script"
		}
		sub.Action = completionAction(f, sub.Name, sub.Action)
	}
}

// completionAction prints the shell's script: ours for bash, urfave's for
// the others. Only --output json on the command line wraps it: someone who
// exports LOAMS_OUTPUT=json for scripts still gets a script from
// `source <(loams completions bash)` in their shell's startup file.
func completionAction(f *Factory, shell string, urfave cli.ActionFunc) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		script := ""
		if shell == "bash" {
			script = bashCompletion(cmd.Root().Name)
		} else {
			var b strings.Builder
			root := cmd.Root()
			w := root.Writer
			root.Writer = &b
			err := urfave(ctx, cmd)
			root.Writer = w
			if err != nil {
				return err
			}
			script = b.String()
		}
		if cmd.IsSet("output") && f.JSON() {
			return output.WriteJSON(f.IO.Out, map[string]string{"shell": shell, "script": script})
		}
		_, err := f.IO.Out.Write([]byte(script))
		return err
	}
}

// bashCompletion is a self-contained bash completion script: urfave's
// calls _get_comp_words_by_ref from the bash-completion package, which
// stock macOS bash and minimal Linux images lack ("command not found" at
// every TAB). This one uses only bash 3.2 builtins.
func bashCompletion(prog string) string {
	return strings.NewReplacer("PROG", prog).Replace(`# bash completion for PROG (from ` + "`PROG completions bash`" + `).
# Self-contained: needs neither the bash-completion package nor bash 4.
_PROG_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local -a args words
  args=("${COMP_WORDS[@]:1:COMP_CWORD-1}")
  # A dash asks for flags: PROG completes them from the partial word.
  if [[ "$cur" == -* ]]; then
    args+=("$cur")
  fi
  local IFS=$'\n' line
  for line in $("${COMP_WORDS[0]}" ${args[@]+"${args[@]}"} --generate-shell-completion 2>/dev/null); do
    # Lines are "candidate:description"; bash shows candidates only.
    words+=("${line%%:*}")
  done
  COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
}
complete -o bashdefault -o default -F _PROG_complete PROG
`)
}
