package serverbin_test

import (
	"testing"

	"loams.dev/cli/serverbin"
)

// server_version is the semver GetInstance reports ("0.0.7"), also when
// it comes from the `--version` line ("loams 0.0.7") or an older
// stack.toml that stored that line.
func TestServerVersionIsSemver(t *testing.T) {
	for in, want := range map[string]string{
		"loams 0.0.7": "0.0.7", "0.0.7": "0.0.7", "v1.2.3": "1.2.3", "loams 0.4.0-rc.1 (abc)": "0.4.0-rc.1",
		"loams 1.0.0+build.5": "1.0.0+build.5", "loams dev": "dev", "": "",
	} {
		if got := serverbin.SemVer(in); got != want {
			t.Errorf("SemVer(%q) = %q, want %q", in, got, want)
		}
	}
}
