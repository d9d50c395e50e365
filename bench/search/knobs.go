package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"loams.dev/cli/docsindex"
)

// knob is one weight of docsindex.Tuning and the values the search tries:
// round values around today's default, wide enough to reach "off" (0 or 1)
// where that means something.
type knob struct {
	name string
	at   func(*docsindex.Tuning) *float64
	grid []float64
}

var knobs = []knob{
	{"K1", func(t *docsindex.Tuning) *float64 { return &t.K1 }, []float64{0.6, 0.9, 1.2, 1.5, 2}},
	{"BTitle", func(t *docsindex.Tuning) *float64 { return &t.BTitle }, []float64{0, 0.15, 0.3, 0.5, 0.75}},
	{"BBody", func(t *docsindex.Tuning) *float64 { return &t.BBody }, []float64{0.25, 0.5, 0.75, 0.9, 1}},
	{"BAsks", func(t *docsindex.Tuning) *float64 { return &t.BAsks }, []float64{0, 0.15, 0.3, 0.5, 0.75}},
	{"TitleWeight", func(t *docsindex.Tuning) *float64 { return &t.TitleWeight }, []float64{2, 3, 4, 5, 6, 8}},
	{"AsksWeight", func(t *docsindex.Tuning) *float64 { return &t.AsksWeight }, []float64{0, 0.5, 1, 1.5, 2}},
	{"UntitledWeight", func(t *docsindex.Tuning) *float64 { return &t.UntitledWeight }, []float64{0.3, 0.5, 0.7, 0.85, 1}},
	{"PrefixScale", func(t *docsindex.Tuning) *float64 { return &t.PrefixScale }, []float64{0.2, 0.3, 0.4, 0.6, 0.8}},
	{"SynonymScale", func(t *docsindex.Tuning) *float64 { return &t.SynonymScale }, []float64{0.5, 0.6, 0.7, 0.8, 1}},
	{"HeadingBonus", func(t *docsindex.Tuning) *float64 { return &t.HeadingBonus }, []float64{0.5, 1, 1.5, 2, 3, 4}},
	{"HeadingCover", func(t *docsindex.Tuning) *float64 { return &t.HeadingCover }, []float64{0, 0.25, 0.5, 0.75, 1}},
	{"TitleBoost", func(t *docsindex.Tuning) *float64 { return &t.TitleBoost }, []float64{1, 1.25, 1.5, 2, 2.5}},
	{"PhraseBoost", func(t *docsindex.Tuning) *float64 { return &t.PhraseBoost }, []float64{1, 1.25, 1.5, 2, 2.5}},
	{"PairBoost", func(t *docsindex.Tuning) *float64 { return &t.PairBoost }, []float64{1, 1.1, 1.2, 1.3, 1.5}},
	{"IntroWeight", func(t *docsindex.Tuning) *float64 { return &t.IntroWeight }, []float64{0.3, 0.4, 0.5, 0.6, 0.8, 1}},
	{"ReferenceWeight", func(t *docsindex.Tuning) *float64 { return &t.ReferenceWeight }, []float64{0.2, 0.3, 0.4, 0.5, 0.6, 0.8}},
	{"SnippetWeight", func(t *docsindex.Tuning) *float64 { return &t.SnippetWeight }, []float64{0.3, 0.4, 0.5, 0.6, 0.8, 1}},
	{"SameEngineBoost", func(t *docsindex.Tuning) *float64 { return &t.SameEngineBoost }, []float64{1, 1.25, 1.5, 2, 2.5}},
	{"OtherEngineWeight", func(t *docsindex.Tuning) *float64 { return &t.OtherEngineWeight }, []float64{0.3, 0.4, 0.5, 0.6, 0.8, 1}},
	{"OtherLanguageWeight", func(t *docsindex.Tuning) *float64 { return &t.OtherLanguageWeight }, []float64{0.3, 0.4, 0.5, 0.6, 0.8, 1}},
	{"FailureBoost", func(t *docsindex.Tuning) *float64 { return &t.FailureBoost }, []float64{1, 1.15, 1.3, 1.5, 2}},
	{"NoFailureWeight", func(t *docsindex.Tuning) *float64 { return &t.NoFailureWeight }, []float64{0.5, 0.6, 0.7, 0.85, 1}},
	{"ExactSnippetBoost", func(t *docsindex.Tuning) *float64 { return &t.ExactSnippetBoost }, []float64{1, 1.5, 2, 2.5, 3}},
	{"CodeAskedBoost", func(t *docsindex.Tuning) *float64 { return &t.CodeAskedBoost }, []float64{1, 1.25, 1.5, 2, 3}},
}

// tuning is what the ordinary run ranks with: the defaults, or -tune's.
var tuning = docsindex.DefaultTuning

// parseTune reads -tune's "Name=value,…" into tuning.
func parseTune(arg string) error {
	for _, kv := range strings.Split(arg, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(kv), "=")
		i := slices.IndexFunc(knobs, func(k knob) bool { return k.name == name })
		if i < 0 {
			return fmt.Errorf("no weight named %q", name)
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		*knobs[i].at(&tuning) = v
	}
	return nil
}
