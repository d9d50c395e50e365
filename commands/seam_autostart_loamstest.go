//go:build loamstest

package commands

// testAutostartOS is LOAMS_TEST_AUTOSTART_OS: in test builds only, the
// stack verbs drive another platform's service manager (its stand-in on
// PATH), so the launchd and Task Scheduler flows run on Linux too.
func testAutostartOS(getenv func(string) string) string { return getenv("LOAMS_TEST_AUTOSTART_OS") }
