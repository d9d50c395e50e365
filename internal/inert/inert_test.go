package inert

import "testing"

func TestControlsAreShownNotObeyed(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, tabs\tand\nnewlines": "plain text, tabs\tand\nnewlines",
		"clip \x1b]52;c;ZXZpbA==\x07":     `clip \x1b]52;c;ZXZpbA==\x07`,
		"clear \x1b[2J\x1b[H":             `clear \x1b[2J\x1b[H`,
		"over\rwrite":                     `over\rwrite`,
		"del\x7f":                         `del\x7f`,
		"csi \u009b2J, nel \u0085":        `csi \u009b2J, nel \u0085`,
		"bad \x9b byte":                   `bad \x9b byte`,
		"é, ü, 日本, \u00a0":                "é, ü, 日本, \u00a0",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
