// Command search compares the docs index with bleve on the same sections
// and the same labelled queries: build time, query latency, heap, MRR@10
// recall@5 and the share of queries answered by the first result. It
// lives in its own module so bleve stays out of loams.
//
//	cd bench/search && go run . [-node /usr/share/doc/nodejs/api]
//	cd bench/search && go run . -bleve=false -node= -misses   (ranking work)
//	cd bench/search && go run . -fit   (fit the ranking's weights, leave-one-set-out; fit.go)
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"loams.dev/cli/docs"
	"loams.dev/cli/docsindex"
)

type labelled struct {
	query string
	want  []string // file::heading prefix
}

type engine interface {
	search(q string, n int) []int // section numbers, best first
}

type ours struct {
	ix  *docsindex.Index
	pos map[string]int
}

func (o ours) search(q string, n int) []int {
	var out []int
	for _, h := range o.ix.Search(q, n) {
		out = append(out, o.pos[key(h.Section)])
	}
	return out
}

type theirs struct{ ix bleve.Index }

func (b theirs) search(q string, n int) []int {
	title := query.NewMatchQuery(q)
	title.SetField("title")
	title.SetBoost(3)
	body := query.NewMatchQuery(q)
	body.SetField("body")
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(title, body), n, 0, false)
	res, err := b.ix.Search(req)
	if err != nil {
		panic(err)
	}
	var out []int
	for _, h := range res.Hits {
		var i int
		fmt.Sscan(h.ID, &i)
		out = append(out, i)
	}
	return out
}

func key(s docsindex.Section) string {
	return s.Path + "#" + s.Anchor + "#" + strings.Join(s.TitlePath, "/")
}

func main() {
	nodeDir := flag.String("node", "/usr/share/doc/nodejs/api", "Node.js API docs (*.md or *.md.gz)")
	rounds := flag.Int("rounds", 20, "times each query runs for the latency figures")
	withBleve := flag.Bool("bleve", true, "run bleve beside our index (false: ours only, for quick ranking checks)")
	flag.BoolVar(&showMisses, "misses", false, "print each query whose first result is not a wanted section")
	flag.BoolVar(&showRanks, "ranks", false, "print each query's rank of its first wanted section (0: not in the top 10), to diff two revisions")
	fit := flag.Bool("fit", false, "fit the ranking's weights on the bundle's question sets and print leave-one-set-out validation (fit.go)")
	flag.Func("tune", "weights to try instead of the defaults, e.g. PairBoost=1.5,IntroWeight=0.3 (names: docsindex.Tuning's fields)", parseTune)
	flag.BoolVar(&fitBySet, "fit-by-set", false, "with -fit: maximise the mean of the sets' figures (each set weighs the same), not of all questions'")
	flag.BoolVar(&fitGuard, "fit-guard", true, "with -fit: reject a move that lowers the Node.js figures (-node)")
	minGain := flag.Float64("fit-gain", 0.003, "with -fit: the least gain in mean MRR@10 for a knob to move from its default")
	dumpTo := flag.String("dump", "", "write the sections and every set's questions with our top 20 to this JSON file, and stop (dump.go)")
	flag.Parse()
	bundle, err := docsindex.Open(docs.FS, "bench").Sections()
	check(err)
	if *dumpTo != "" {
		files, _ := filepath.Glob("queries-*.tsv")
		dump(*dumpTo, bundle, slices.DeleteFunc(files, func(f string) bool { return strings.Contains(f, "node") }))
		return
	}
	sets := []questionSet{{"bundle", readQueries("queries-bundle.tsv")}, {"agent 1", readQueries("queries-agent.tsv")}}
	for i := 2; i <= 6; i++ { // not sets 7, 8 and 9: held-out checks
		sets = append(sets, questionSet{fmt.Sprintf("agent %d", i), readQueries(fmt.Sprintf("queries-agent-%d.tsv", i))})
	}
	if *fit {
		var node []docsindex.Section
		if *nodeDir != "" {
			node, _ = nodeSections(*nodeDir)
		}
		runFit(os.Stdout, bundle, sets, node, readQueries("queries-node.tsv"), *minGain)
		return
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "corpus\tsections\tqueries\tengine\tbuild\tp50\tp99\theap\tMRR@10\trecall@5\tfirst\t")
	engines := []string{"loams", "bleve"}
	if !*withBleve {
		engines = engines[:1]
	}
	run(tw, "bundle", bundle, readQueries("queries-bundle.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions", bundle, readQueries("queries-agent.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions 2", bundle, readQueries("queries-agent-2.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions 3", bundle, readQueries("queries-agent-3.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions 4", bundle, readQueries("queries-agent-4.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions 5", bundle, readQueries("queries-agent-5.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions 6", bundle, readQueries("queries-agent-6.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions 7", bundle, readQueries("queries-agent-7.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions 8", bundle, readQueries("queries-agent-8.tsv"), *rounds, engines)
	run(tw, "bundle, agent questions 9", bundle, readQueries("queries-agent-9.tsv"), *rounds, engines)
	if *nodeDir == "" {
		tw.Flush()
		return
	}
	if node, err := nodeSections(*nodeDir); err == nil && len(node) > 0 {
		run(tw, "node-api", node, readQueries("queries-node.tsv"), *rounds, engines)
	} else {
		fmt.Fprintf(os.Stderr, "skipping the Node.js corpus: %v (apt-get install nodejs-doc)\n", err)
	}
	tw.Flush()
}

func run(tw io.Writer, corpus string, sections []docsindex.Section, qs []labelled, rounds int, engines []string) {
	for _, q := range qs { // a label that names no section would score as a miss for both engines
		for _, w := range q.want {
			if !slices.ContainsFunc(sections, func(s docsindex.Section) bool { return matches(s, []string{w}) }) {
				fmt.Fprintf(os.Stderr, "%s: label %q matches no section\n", corpus, w)
			}
		}
	}
	for _, name := range engines {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		var e engine
		if name == "loams" {
			o := newOurs(sections)
			o.ix.Tune(tuning)
			e = o
		} else {
			e = theirs{ix: buildBleve(sections)}
		}
		build := time.Since(start)
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		var lat []time.Duration
		var mrr, recall, first float64
		for r := 0; r < rounds; r++ {
			for _, q := range qs {
				t := time.Now()
				got := e.search(q.query, 10)
				lat = append(lat, time.Since(t))
				if r == 0 {
					m, rc := score(sections, got, q.want)
					if showRanks && name == "loams" {
						rank := 0
						if m > 0 {
							rank = int(1/m + 0.5)
						}
						fmt.Fprintf(os.Stderr, "RANK [%s] %q %d\n", corpus, q.query, rank)
					}
					mrr += m
					recall += rc
					if m == 1 {
						first++
					} else if showMisses && name == "loams" {
						miss(corpus, sections, q, got)
					}
				}
			}
		}
		slices.Sort(lat)
		n := float64(len(qs))
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%.1f MiB\t%.3f\t%.3f\t%.0f %%\t\n", corpus, len(sections), len(qs), name,
			round(build), round(lat[len(lat)/2]), round(lat[len(lat)*99/100]), float64(heap)/(1<<20), mrr/n, recall/n, 100*first/n)
		runtime.KeepAlive(e)
	}
}

var showMisses, showRanks bool

// miss prints a query whose first result is not wanted, with the top three.
func miss(corpus string, sections []docsindex.Section, q labelled, got []int) {
	rank := "not in the top 10"
	for i, g := range got {
		if matches(sections[g], q.want) {
			rank = fmt.Sprintf("first wanted at %d", i+1)
			break
		}
	}
	fmt.Fprintf(os.Stderr, "MISS [%s] %q (want %s; %s)\n", corpus, q.query, strings.Join(q.want, " | "), rank)
	for i, g := range got[:min(3, len(got))] {
		fmt.Fprintf(os.Stderr, "   %d. %s :: %s\n", i+1, sections[g].Path, strings.Join(sections[g].TitlePath, " › "))
	}
}

// score is the reciprocal rank of the first wanted section in the top 10,
// and the share of wanted sections in the top 5.
func score(sections []docsindex.Section, got []int, want []string) (rr, recall float64) {
	found := 0
	for rank, i := range got {
		if !matches(sections[i], want) {
			continue
		}
		if rr == 0 {
			rr = 1 / float64(rank+1)
		}
		if rank < 5 {
			found++
		}
	}
	return rr, min(1, float64(found)/float64(len(want)))
}

func matches(s docsindex.Section, want []string) bool {
	heading := strings.ReplaceAll(s.TitlePath[len(s.TitlePath)-1], "`", "")
	for _, w := range want {
		file, prefix, _ := strings.Cut(w, "::")
		if strings.HasSuffix(s.Path, file) && strings.HasPrefix(strings.ToLower(heading), strings.ToLower(prefix)) {
			return true
		}
	}
	return false
}

func buildBleve(sections []docsindex.Section) bleve.Index {
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = en.AnalyzerName
	doc := mapping.NewDocumentMapping()
	for _, f := range []string{"title", "body"} {
		fm := mapping.NewTextFieldMapping()
		fm.Analyzer = en.AnalyzerName
		fm.Store = false
		doc.AddFieldMappingsAt(f, fm)
	}
	m.DefaultMapping = doc
	ix, err := bleve.NewMemOnly(m)
	check(err)
	batch := ix.NewBatch()
	for i, s := range sections {
		check(batch.Index(fmt.Sprint(i), map[string]string{"title": strings.Join(s.TitlePath, " "), "body": s.Body}))
	}
	check(ix.Batch(batch))
	return ix
}

// nodeSections reads the Node.js API docs as one more docs tree.
func nodeSections(dir string) ([]docsindex.Section, error) {
	tmp, err := os.MkdirTemp("", "node-docs-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.md*"))
	if len(paths) == 0 {
		return nil, fmt.Errorf("no Markdown in %s", dir)
	}
	for _, p := range paths {
		f, err := os.Open(p)
		check(err)
		var r io.Reader = f
		name := filepath.Base(p)
		if strings.HasSuffix(p, ".gz") {
			gz, err := gzip.NewReader(f)
			check(err)
			r, name = gz, strings.TrimSuffix(name, ".gz")
		}
		data, err := io.ReadAll(r)
		f.Close()
		check(err)
		if strings.HasSuffix(name, ".md") {
			check(os.WriteFile(filepath.Join(tmp, name), data, 0o644))
		}
	}
	return docsindex.Open(os.DirFS(tmp), "node").Sections()
}

func readQueries(path string) []labelled {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, want, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		out = append(out, labelled{query: q, want: strings.Split(want, "|")})
	}
	return out
}

func round(d time.Duration) time.Duration {
	switch {
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d > time.Microsecond:
		return d.Round(100 * time.Nanosecond)
	}
	return d
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
