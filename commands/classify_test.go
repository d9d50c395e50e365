package commands

import (
	"errors"
	"fmt"
	"testing"

	"loams.dev/cli/internal/errs"
)

// classify decides by type: a coded error keeps its code even wrapped,
// and an uncoded one is internal even when its text says "argument" or
// "option" (it used to become a usage error, exit 2, hiding a bug).
func TestClassifyDecidesByType(t *testing.T) {
	wrapped := fmt.Errorf("starting: %w", errs.New(errs.PortInUse, "pick another --port-base", "port 6333 is in use"))
	for _, tc := range []struct {
		err  error
		want errs.Code
	}{
		{wrapped, errs.PortInUse},
		{errors.New("server rejected the option --data-dir"), errs.Internal},
		{errors.New("bad argument to exec"), errs.Internal},
		{errs.New(errs.Usage, "run `loams --help`", "unknown flag --x"), errs.Usage},
	} {
		if got := classify(tc.err).Code; got != tc.want {
			t.Errorf("classify(%q) = %s, want %s", tc.err, got, tc.want)
		}
	}
}

// Every way urfave reports bad usage still arrives as usage (exit 2, one
// JSON object in json mode), now that no text decides it.
func TestUrfaveUsageErrorsAreCoded(t *testing.T) {
	for _, argv := range [][]string{
		{"stack", "create", "--nosuch"},           // unknown flag
		{"stack", "create", "--port-base"},        // flag needs an argument
		{"stack", "create", "--port-base", "abc"}, // invalid value
		{"stack", "logs", "--lines", "x"},         // invalid value
		{"stack", "frobnicate"},                   // unknown subcommand
		{"--nosuch", "version"},                   // unknown root flag
		{"server", "install", "extra"},            // unexpected argument
		{"stack", "delete"},                       // missing name
		{"docs", "snippet", "--engine"},           // flag needs an argument
	} {
		r := runLoams(t, nil, false, append([]string{"-o", "json"}, argv...)...)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("%v: exit %d stdout %q stderr %q", argv, r.code, r.stdout, r.stderr)
			continue
		}
		if e := parseErr(t, r.stderr); e.Error.Code != "usage" || e.Error.Hint == "" {
			t.Errorf("%v: %+v", argv, e)
		}
	}
}
