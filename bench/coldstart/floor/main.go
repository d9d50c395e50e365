// Command floor is the exec floor of the cold-start benchmark: the least a
// Go program can do to answer MCP on stdio, with canned bytes, under both
// protocol generations (initialize, or server/discover, then tools/list).
// loams' cold start is compared with it.
package main

import (
	"bufio"
	"os"
	"strings"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, `"initialize"`):
			os.Stdout.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"floor","version":"0"}}}` + "\n")
		case strings.Contains(line, `"server/discover"`):
			os.Stdout.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}` + "\n")
		case strings.Contains(line, `"tools/list"`):
			os.Stdout.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}` + "\n")
		}
	}
}
