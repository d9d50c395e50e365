package serverbin

import (
	"path/filepath"
	"regexp"
	"sync"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// variantPattern is what a variant may be called. The name becomes a
// directory under servers/<version>/, so it must be one plain path
// element: no separator, and it cannot start with a dot (`.`, `..`).
var variantPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`) })

// validVariant reports whether v may name an install directory.
func validVariant(v string) bool {
	return v != "." && v != ".." && variantPattern().MatchString(v)
}

// CheckVariant refuses a --variant that is not a plain name, before any
// download: it would otherwise become a path.
func CheckVariant(v string) error {
	if validVariant(v) {
		return nil
	}
	return errs.New(errs.Usage, "give --variant a release variant: standard, full or cli",
		"invalid variant %q: a variant is a lower-case name such as standard", v).With("variant", v)
}

// installDir is servers/<version>/<variant>, checked to be exactly that:
// the install renames and removes this directory, so it must never
// resolve anywhere else (another variant, the version, outside LOAMS_HOME).
func installDir(h home.Home, version, variant string) (string, error) {
	servers := ServersDir(h)
	versionDir := filepath.Join(servers, version)
	dir := filepath.Join(versionDir, variant)
	v, ok := ParseVersion(version)
	if !ok || v.String() != version || !validVariant(variant) ||
		filepath.Dir(versionDir) != servers || filepath.Dir(dir) != versionDir || filepath.Base(dir) != variant {
		return "", errs.New(errs.Usage, "give --variant a release variant: standard, full or cli",
			"refusing to install %s/%s: it is not a directory of its own under %s", version, variant, servers).
			With("version", version).With("variant", variant)
	}
	return dir, nil
}
