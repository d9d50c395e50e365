package commands

import (
	"strings"

	"loams.dev/cli/serverbin"
)

// serverRows are describe's lines for what GetInstance said.
func serverRows(edition string, services []serverbin.Service) [][]string {
	var rows [][]string
	if edition != "" {
		rows = append(rows, []string{"edition", edition})
	}
	var have, lack []string
	for _, s := range services {
		if s.Available {
			have = append(have, s.Package)
		} else {
			lack = append(lack, s.Package)
		}
	}
	if len(have) > 0 {
		rows = append(rows, []string{"services", strings.Join(have, ", ")})
	}
	if len(lack) > 0 {
		rows = append(rows, []string{"not in this build", strings.Join(lack, ", ")})
	}
	return rows
}
