package serverbin

import (
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// ServersDir is where `loams server install` puts servers:
// servers/<version>/<variant>/loams, and servers/current naming the one in use.
func ServersDir(h home.Home) string { return filepath.Join(h.Dir, "servers") }

func currentFile(h home.Home) string { return filepath.Join(ServersDir(h), "current") }

// Current is the path of the installed server marked current, "" if none.
func Current(h home.Home) string {
	data, _, err := safefile.ReadRegular(currentFile(h), currentFile(h), 1<<12)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}
