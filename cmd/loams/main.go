// Command loams is the developer CLI of the Loams data platform.
package main

import (
	"os"

	"loams.dev/cli/commands"
)

func main() {
	os.Exit(commands.Main())
}
