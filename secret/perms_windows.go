package secret

import "loams.dev/cli/internal/home"

// checkProfilePaths: Windows has no Unix modes; its ACLs are left to the OS.
func checkProfilePaths(home.Home, string) error { return nil }
