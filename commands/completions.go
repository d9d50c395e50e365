package commands

import (
	"strings"

	"github.com/urfave/cli/v3"
)

// configureCompletions shapes urfave's built-in completion command into the
// spec's `loams completions bash|zsh|fish|powershell`.
func configureCompletions(c *cli.Command) {
	c.Hidden = false
	c.Usage = "Print a shell completion script"
	c.Description = describe("Source the script to complete loams commands and flags in your shell.",
		"loams completions bash > ~/.local/share/bash-completion/completions/loams",
		"loams completions zsh > \"${fpath[1]}/_loams\"",
		"loams completions fish > ~/.config/fish/completions/loams.fish",
		"loams completions powershell >> $PROFILE")
	for _, sub := range c.Commands {
		if sub.Name == "pwsh" {
			sub.Name, sub.Aliases = "powershell", []string{"pwsh"}
		}
		sub.Usage = "Print the " + sub.Name + " completion script"
		sub.Description = describe("", "loams completions "+sub.Name)
		if strings.HasPrefix(sub.Name, "power") {
			sub.Usage = "Print the PowerShell completion script"
		}
	}
}
