//go:build loamstest

package serverbin

// The test seam. Built only with `-tags loamstest`, which the tests'
// builds of the loams binary use (internal/testkit/testbin) and goreleaser never
// does, so a release binary cannot be told to trust another key or to
// look for servers somewhere else.

// TestKeys is an extra trusted minisign public key from
// LOAMS_TEST_MINISIGN_KEY (the base64 line of a .pub file).
func TestKeys(getenv func(string) string) []string {
	if k := getenv("LOAMS_TEST_MINISIGN_KEY"); k != "" {
		return []string{k}
	}
	return nil
}

// TestRoot is LOAMS_TEST_ROOT, prefixed to /usr/bin/loams and the other
// fixed system paths so tests never look at the real ones.
func TestRoot(getenv func(string) string) string { return getenv("LOAMS_TEST_ROOT") }
