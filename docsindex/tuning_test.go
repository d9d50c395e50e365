package docsindex

import (
	"testing"
	"testing/fstest"
)

// Tune reaches the ranking, and an index left alone ranks with the
// defaults: the bench fits weights through it, so a knob that did nothing
// would be "fitted" to any value.
func TestTuneChangesTheRankingAndDefaultsStay(t *testing.T) {
	t.Parallel()
	fs := fstest.MapFS{
		"guides/reference/loams.md": {Data: []byte("# loams reference\n\n## loams stack start\n\nStart a stack and wait for its server.\n")},
		"guides/stacks.md":          {Data: []byte("# Stacks\n\n## Start a stack\n\nStart a stack and wait for its server.\n")},
	}
	sections, err := Open(fs, "test").Sections()
	if err != nil {
		t.Fatal(err)
	}
	ix := Build(sections)
	top := func() string { return ix.Search("start a stack", 5)[0].Section.Path }
	if got := top(); got != "guides/stacks.md" {
		t.Fatalf("default tuning: top %s, want the guide over the reference", got)
	}
	tn := DefaultTuning
	tn.ReferenceWeight = 10
	ix.Tune(tn)
	if got := top(); got != "guides/reference/loams.md" {
		t.Errorf("ReferenceWeight 10: top %s, want the reference", got)
	}
	ix.Tune(DefaultTuning)
	if got := top(); got != "guides/stacks.md" {
		t.Errorf("back to DefaultTuning: top %s, want the guide", got)
	}
}
