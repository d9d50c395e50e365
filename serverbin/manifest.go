package serverbin

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"

	"aead.dev/minisign"

	"loams.dev/cli/internal/errs"
)

// Manifest is loams-release.json, schema 1 (server.md).
type Manifest struct {
	Schema       int        `json:"schema"`
	Version      string     `json:"version"`
	Channel      string     `json:"channel"`
	PublishedAt  string     `json:"published_at"`
	OutputSchema int        `json:"output_schema"`
	DocsVersion  string     `json:"docs_version"`
	Artifacts    []Artifact `json:"artifacts"`
}

// Artifact is one archive of a release: loams-<variant>-<target>.tar.xz.
type Artifact struct {
	Variant  string   `json:"variant"`
	Target   string   `json:"target"`
	URL      string   `json:"url"`
	SHA256   string   `json:"sha256"`
	Size     int64    `json:"size"`
	Features []string `json:"features"`
}

// ParseManifest reads a manifest; any schema but 1 is manifest_invalid.
func ParseManifest(data []byte, from string) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, errs.New(errs.ManifestInvalid, "check LOAMS_RELEASES_URL points at a Loams release", "%s is not a release manifest: %v", from, err).With("url", from)
	}
	if m.Schema != 1 {
		return nil, errs.New(errs.ManifestInvalid, "upgrade loams, which understands manifest schema 1", "%s has schema %d", from, m.Schema).With("url", from)
	}
	if _, ok := ParseVersion(m.Version); !ok || len(m.Artifacts) == 0 {
		return nil, errs.New(errs.ManifestInvalid, "check LOAMS_RELEASES_URL points at a Loams release", "%s has no version or no artifacts", from).With("url", from)
	}
	for _, a := range m.Artifacts {
		if !validVariant(a.Variant) {
			return nil, errs.New(errs.ManifestInvalid, "do not use this release; check LOAMS_RELEASES_URL points at a Loams release",
				"%s names an artifact variant %q that is not a plain name", from, a.Variant).With("url", from).With("variant", a.Variant)
		}
	}
	return &m, nil
}

// targets maps GOOS/GOARCH to the release's Rust target triples.
var targets = map[string]string{
	"linux/amd64":  "x86_64-unknown-linux-gnu",
	"linux/arm64":  "aarch64-unknown-linux-gnu",
	"darwin/arm64": "aarch64-apple-darwin",
}

// Target is this platform's target triple, "" when no release has one.
func Target(goos, goarch string) string {
	if goos == "" {
		goos, goarch = runtime.GOOS, runtime.GOARCH
	}
	return targets[goos+"/"+goarch]
}

// Pick finds the artifact for target and variant; none is
// variant_not_found naming what the release has.
func (m *Manifest) Pick(variant, target string) (Artifact, error) {
	var have []string
	for _, a := range m.Artifacts {
		if a.Variant == variant && a.Target == target {
			return a, nil
		}
		have = append(have, a.Variant+"/"+a.Target)
	}
	slices.Sort(have)
	return Artifact{}, errs.New(errs.VariantNotFound, "pick one the release has with --variant: "+strings.Join(have, ", "),
		"release %s has no %s build for %s", m.Version, variant, target).
		With("variant", variant).With("target", target).With("available", have)
}

// Verify checks the manifest's minisign signature against the trusted keys
// (base64 lines of a minisign .pub file); any one may have signed.
func Verify(manifest, signature []byte, keys []string) error {
	for _, k := range keys {
		var pk minisign.PublicKey
		if err := pk.UnmarshalText([]byte(k)); err != nil {
			continue
		}
		if minisign.Verify(pk, manifest, signature) {
			return nil
		}
	}
	return errs.New(errs.SignatureInvalid, "do not use this release: it was not signed by the Loams server project (check LOAMS_RELEASES_URL)",
		"the release manifest's signature does not match any trusted key")
}
