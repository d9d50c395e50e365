package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"loams.dev/cli/docsindex"
)

// dump writes the sections and, for every question set, each question's
// top 20 from our index and the sections that answer it, as one JSON
// document: what an experiment outside Go (a different ranker, reranking
// ours) needs to be scored exactly as main scores ours. semantic/ reads it.
func dump(path string, sections []docsindex.Section, files []string) {
	type sec struct {
		Path, Title, Body, Asks string
	}
	type question struct {
		Query  string
		Ours   []int
		Answer []int
	}
	out := struct {
		Sections []sec
		Sets     map[string][]question
	}{Sets: map[string][]question{}}
	for _, s := range sections {
		out.Sections = append(out.Sections, sec{s.Path, strings.Join(s.TitlePath, " › "), s.Body, s.Asks})
	}
	o := newOurs(sections)
	for _, f := range files {
		for _, q := range readQueries(f) {
			var ans []int
			for i, s := range sections {
				if matches(s, q.want) {
					ans = append(ans, i)
				}
			}
			out.Sets[f] = append(out.Sets[f], question{q.query, o.search(q.query, 20), ans})
		}
	}
	data, err := json.Marshal(out)
	check(err)
	check(os.WriteFile(path, data, 0o644))
	fmt.Fprintf(os.Stderr, "wrote %s: %d sections, %d sets\n", path, len(sections), len(out.Sets))
}
