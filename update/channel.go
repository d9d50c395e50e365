// Package update keeps loams current: a once-a-day check of the release
// channel, run in the background, whose answer the next run turns into
// a one-line notice; and `loams update`, which replaces an archive
// install with the newest verified release (and can roll it back).
package update

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
	"sync"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/serverbin"
)

// DefaultReleasesURL is the CLI's latest GitHub release; a release's own
// files live under download/v<version>/.
const DefaultReleasesURL = "https://github.com/ostrium-labs/loams/releases/latest/download/"

// ChecksumsFile is what goreleaser writes (goreleaser.yaml `checksum`),
// signed beside it as checksums.txt.minisig.
const ChecksumsFile = "checksums.txt"

// BaseURL is LOAMS_CLI_RELEASES_URL (mirrors, tests) or the default, with
// a trailing slash.
func BaseURL(getenv func(string) string) string {
	base := getenv("LOAMS_CLI_RELEASES_URL")
	if base == "" {
		base = DefaultReleasesURL
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base
}

// ReleaseURL is where the files of version ("" = the latest) live.
func ReleaseURL(base, version string) string {
	if version == "" {
		return base
	}
	v := "v" + strings.TrimPrefix(version, "v") + "/"
	if base == DefaultReleasesURL {
		return "https://github.com/ostrium-labs/loams/releases/download/" + v
	}
	return base + v
}

// Checksums is checksums.txt: file name → SHA-256 (hex).
type Checksums map[string]string

// ParseChecksums reads `<sha256>  <name>` lines (sha256sum's format).
func ParseChecksums(data []byte, from string) (Checksums, error) {
	out := Checksums{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 || len(fields[0]) != 64 {
			continue
		}
		out[strings.TrimPrefix(fields[1], "*")] = strings.ToLower(fields[0])
	}
	if len(out) == 0 {
		return nil, errs.New(errs.ManifestInvalid, "check LOAMS_CLI_RELEASES_URL points at a loams release",
			"%s lists no files", from).With("url", from)
	}
	return out, nil
}

var archiveName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^loams_(\d+\.\d+\.\d+)_[a-z0-9]+_[a-z0-9]+\.(?:tar\.gz|zip)$`)
})

// Version is the release the archives are of: the newest X.Y.Z that
// names an archive (a pre-release, X.Y.Z-rc1, is never offered).
func (c Checksums) Version() (string, bool) {
	best, found := serverbin.Version{}, false
	for name := range c {
		m := archiveName().FindStringSubmatch(name)
		if m == nil {
			continue
		}
		v, _ := serverbin.ParseVersion(m[1])
		if !found || v.Compare(best) > 0 {
			best, found = v, true
		}
	}
	return best.String(), found
}

// ArchiveName is the archive goreleaser.yaml makes for a platform:
// loams_<version>_<os>_<arch>.tar.gz (.zip on Windows).
func ArchiveName(version, goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return "loams_" + strings.TrimPrefix(version, "v") + "_" + goos + "_" + goarch + ext
}

// Newer reports whether latest is a later release than current.
func Newer(latest, current string) bool {
	l, ok1 := serverbin.ParseVersion(latest)
	c, ok2 := serverbin.ParseVersion(current)
	return ok1 && ok2 && l.Compare(c) > 0
}
