// Package release holds what this CLI trusts about releases: the minisign
// public keys of the server project, compiled in from minisign.pub, and
// those of this CLI's own releases, from cli-minisign.pub. Both files are
// empty until a key is published; `loams server install` and `loams
// update` then need --allow-unsigned.
package release

import (
	_ "embed"
	"strings"
)

//go:embed minisign.pub
var pub string

//go:embed cli-minisign.pub
var cliPub string

// maxKeys is the current key and the next one, during a rotation.
const maxKeys = 2

// Keys are the base64 key lines of minisign.pub (comment lines and blank
// lines skipped), at most two.
func Keys() []string { return parseKeys(pub) }

// CLIKeys are the keys of this CLI's own releases (`loams update`).
func CLIKeys() []string { return parseKeys(cliPub) }

func parseKeys(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "untrusted comment:") || strings.HasPrefix(line, "#") {
			continue
		}
		if len(out) < maxKeys {
			out = append(out, line)
		}
	}
	return out
}
