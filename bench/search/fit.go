package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"loams.dev/cli/docsindex"
)

// The -fit mode fits the ranking's weights (docsindex.Tuning) on the
// labelled question sets of the bundle by coordinate search over a grid of
// round values, and reports leave-one-set-out validation: each set scored
// with the defaults and with weights fitted on the other sets only. A fit
// that helps only the sets it was fitted on shows up there as no gain.

// fitSteps bounds the search: at most this many knobs move from their
// defaults.
const fitSteps = 8

// questionSet is one labelled set of the bundle.
type questionSet struct {
	name string
	qs   []labelled
}

// figures are a set's (or a pool's) MRR@10 and first-result rate.
type figures struct{ mrr, first float64 }

// objective is what the fit maximises: mean MRR@10, the first-result rate
// as a tie-break.
func (f figures) objective() float64 { return f.mrr + 1e-3*f.first }

func (f figures) String() string { return fmt.Sprintf("%.3f / %.0f %%", f.mrr, 100*f.first) }

// evaluate scores ix with its current tuning on qs, pooled: every question
// weighs the same.
func evaluate(e ours, sections []docsindex.Section, qs []labelled) figures {
	var f figures
	for _, q := range qs {
		rr, _ := score(sections, e.search(q.query, 10), q.want)
		f.mrr += rr
		if rr == 1 {
			f.first++
		}
	}
	n := float64(max(len(qs), 1))
	return figures{f.mrr / n, f.first / n}
}

// guard is a corpus the fit must not make worse: the Node.js API docs,
// which have no asks lines, no snippets and none of this product's words,
// stand for docs the weights were not fitted on.
type guard struct {
	e        ours
	sections []docsindex.Section
	qs       []labelled
	floor    float64 // its objective with the defaults
}

// holds tells whether t keeps the guard's figures.
func (g *guard) holds(t docsindex.Tuning) bool {
	if g == nil {
		return true
	}
	g.e.ix.Tune(t)
	defer g.e.ix.Tune(docsindex.DefaultTuning)
	return evaluate(g.e, g.sections, g.qs).objective() >= g.floor-1e-9
}

// fitTuning searches from the defaults on qs, one knob at a time: each
// step tries every grid value of every knob, the others held, and takes the
// single move that gains most, if it gains at least minGain in the
// objective and keeps the guard's figures; else it stops. The margin is
// the regulariser: a move that one or two questions tip (one question from
// second to first is 0.5/len(qs)) fits those questions, not the docs; the
// first full coordinate search (every knob free, no margin) moved 13-19
// knobs per fold and gained nothing on the sets left out (HISTORY.md).
// A value is judged by the mean of its own objective and its grid
// neighbours', so a knife's edge does not win, and of a knob's values about
// as good as its best (within a third of the margin) the one nearest its
// current value is taken: the smallest move that does the work.
func fitTuning(e ours, sections []docsindex.Section, train []questionSet, minGain float64, g *guard) docsindex.Tuning {
	t := docsindex.DefaultTuning
	e.ix.Tune(t)
	base := trainObjective(e, sections, train)
	type move struct {
		knob       int
		value      float64
		gain, dist float64
	}
	for step := 0; step < fitSteps; step++ {
		var moves []move
		for ki, k := range knobs {
			cur := *k.at(&t)
			raw := make([]float64, len(k.grid))
			for gi, v := range k.grid {
				if v == cur {
					raw[gi] = base
					continue
				}
				try := t
				*k.at(&try) = v
				e.ix.Tune(try)
				raw[gi] = trainObjective(e, sections, train)
			}
			top := math.Inf(-1)
			for gi := range k.grid {
				top = max(top, smoothed(raw, gi))
			}
			for gi, v := range k.grid {
				gain := smoothed(raw, gi) - base
				if v == cur || raw[gi] <= base || gain < minGain {
					continue
				}
				if smoothed(raw, gi) >= top-minGain/3 {
					gain = top - base // about as good as the knob's best: the nearest of these goes first
				}
				moves = append(moves, move{ki, v, gain, math.Abs(v - cur)})
			}
		}
		// Best gain first, then the smallest move; the guard may refuse a
		// value of a knob and accept a smaller one of the same knob.
		slices.SortStableFunc(moves, func(a, b move) int {
			return cmp.Or(cmp.Compare(b.gain, a.gain), cmp.Compare(a.dist, b.dist))
		})
		taken := false
		for _, m := range moves {
			try := t
			*knobs[m.knob].at(&try) = m.value
			if g.holds(try) {
				t, taken = try, true
				break
			}
		}
		if !taken {
			break
		}
		e.ix.Tune(t)
		base = trainObjective(e, sections, train)
	}
	e.ix.Tune(docsindex.DefaultTuning)
	return t
}

// fitGuard keeps the Node.js guard on (-fit-guard=false: off, to see what
// the fit would do to docs it was not fitted on).
var fitGuard = true

// fitBySet makes the fit's objective the mean of the training sets'
// figures, each set weighing the same, instead of every question weighing
// the same (set 1 has 100 questions, the others 30-52).
var fitBySet bool

// trainObjective is the objective on the training sets.
func trainObjective(e ours, sections []docsindex.Section, train []questionSet) float64 {
	if !fitBySet {
		var all []labelled
		for _, s := range train {
			all = append(all, s.qs...)
		}
		return evaluate(e, sections, all).objective()
	}
	sum := 0.0
	for _, s := range train {
		sum += evaluate(e, sections, s.qs).objective()
	}
	return sum / float64(len(train))
}

// smoothed is raw[g] averaged with its neighbours, itself counting twice.
func smoothed(raw []float64, g int) float64 {
	sum, n := 2*raw[g], 2.0
	if g > 0 {
		sum, n = sum+raw[g-1], n+1
	}
	if g+1 < len(raw) {
		sum, n = sum+raw[g+1], n+1
	}
	return sum / n
}

// runFit prints the leave-one-set-out table, the fit on every set, and the
// Node.js figures with the defaults and with that fit.
func runFit(w io.Writer, sections []docsindex.Section, sets []questionSet, node []docsindex.Section, nodeQs []labelled, minGain float64) {
	e := newOurs(sections)
	// Each fold's guard has its own index: the folds run side by side.
	newGuard := func() *guard {
		if len(node) == 0 || !fitGuard {
			return nil
		}
		g := &guard{e: newOurs(node), sections: node, qs: nodeQs}
		g.floor = evaluate(g.e, node, nodeQs).objective()
		return g
	}
	// The folds are independent: two at a time, each on its own index
	// (an index's tuning is not to be changed under a search).
	type fold struct {
		t        docsindex.Tuning
		def, fit figures
	}
	folds := make([]fold, len(sets))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, held := range sets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			train := slices.Delete(slices.Clone(sets), i, i+1)
			e := newOurs(sections)
			t := fitTuning(e, sections, train, minGain, newGuard())
			def := evaluate(e, sections, held.qs)
			e.ix.Tune(t)
			folds[i] = fold{t, def, evaluate(e, sections, held.qs)}
		}()
	}
	wg.Wait()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "left-out set\tquestions\tdefault\tfitted on the others\t\tchanged knobs (min gain %g)\n", minGain)
	var sumDef, sumFit figures
	for i, f := range folds {
		sumDef.mrr, sumDef.first = sumDef.mrr+f.def.mrr, sumDef.first+f.def.first
		sumFit.mrr, sumFit.first = sumFit.mrr+f.fit.mrr, sumFit.first+f.fit.first
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\t%s\n", sets[i].name, len(sets[i].qs), f.def, f.fit, diff(f.t))
	}
	n := float64(len(sets))
	fmt.Fprintf(tw, "mean of sets\t\t%s\t%s\t\t\n", figures{sumDef.mrr / n, sumDef.first / n}, figures{sumFit.mrr / n, sumFit.first / n})
	tw.Flush()

	var all []labelled
	for _, s := range sets {
		all = append(all, s.qs...)
	}
	t := fitTuning(e, sections, sets, minGain, newGuard())
	fmt.Fprintf(w, "\nfitted on all %d questions: %s\n", len(all), diff(t))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tdefault\tfitted on all\t")
	report := func(name string, e ours, secs []docsindex.Section, qs []labelled) {
		def := evaluate(e, secs, qs)
		e.ix.Tune(t)
		fit := evaluate(e, secs, qs)
		e.ix.Tune(docsindex.DefaultTuning)
		fmt.Fprintf(tw, "%s\t%s\t%s\t\n", name, def, fit)
	}
	for _, s := range sets {
		report(s.name, e, sections, s.qs)
	}
	report("all", e, sections, all)
	if len(node) > 0 {
		report("node-api (not fitted on)", newOurs(node), node, nodeQs)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nneighbours of the fit on all (objective = MRR@10 + 0.001 x first; each knob moved alone):")
	for _, k := range knobs {
		var cells []string
		for _, v := range k.grid {
			try := t
			*k.at(&try) = v
			e.ix.Tune(try)
			mark := " "
			if v == *k.at(&t) {
				mark = "*"
			}
			cells = append(cells, fmt.Sprintf("%g%s%.3f", v, mark, evaluate(e, sections, all).mrr))
		}
		fmt.Fprintf(w, "  %-20s %s\n", k.name, strings.Join(cells, "  "))
	}
	e.ix.Tune(docsindex.DefaultTuning)
}

// diff names the knobs t changed from the defaults.
func diff(t docsindex.Tuning) string {
	var out []string
	d := docsindex.DefaultTuning
	for _, k := range knobs {
		if a, b := *k.at(&d), *k.at(&t); a != b {
			out = append(out, fmt.Sprintf("%s %g→%g", k.name, a, b))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// newOurs is our index over sections, with each section's place in them.
func newOurs(sections []docsindex.Section) ours {
	pos := map[string]int{}
	for i, s := range sections {
		pos[key(s)] = i
	}
	return ours{ix: docsindex.Build(sections), pos: pos}
}
