package serverbin

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// Installed lists the receipts under servers/, newest version first.
func Installed(h home.Home) []Receipt {
	var out []Receipt
	matches, _ := filepath.Glob(filepath.Join(ServersDir(h), "*", "*", "receipt.json"))
	for _, m := range matches {
		data, _, err := safefile.ReadRegular(m, m, 1<<16)
		var r Receipt
		if err == nil && json.Unmarshal(data, &r) == nil {
			r.Path = filepath.Join(filepath.Dir(m), "loams") // where it is now, should LOAMS_HOME have moved
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Receipt) int {
		va, _ := ParseVersion(a.Version)
		vb, _ := ParseVersion(b.Version)
		return vb.Compare(va)
	})
	return out
}

// Remove deletes servers/<version>/ and clears current when it pointed there.
func Remove(h home.Home, version string) (bool, error) {
	v, ok := ParseVersion(version)
	if !ok || strings.ContainsAny(version, `/\`) {
		return false, errs.New(errs.Usage, "give a version such as 0.2.0 (`loams server list` shows them)", "invalid version %q", version)
	}
	dir := filepath.Join(ServersDir(h), v.String())
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if cur := Current(h); cur != "" && strings.HasPrefix(cur, dir+string(filepath.Separator)) {
		if err := os.Remove(currentFile(h)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, err
		}
	}
	return true, os.RemoveAll(dir)
}
