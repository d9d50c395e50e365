package serverbin

import (
	"net"
	"net/url"

	"loams.dev/cli/internal/errs"
)

// checkTrust decides whether the manifest is verified: always when a key
// is compiled in; without one only --allow-unsigned goes on, loudly, and
// only over HTTPS (or to this machine), since the manifest's SHA-256 is
// then all that protects the download.
func (in *Installer) checkTrust(manifestURL string, allowUnsigned bool) (bool, error) {
	if len(in.Keys) > 0 {
		return true, nil
	}
	if !allowUnsigned {
		return false, errs.New(errs.SignatureInvalid,
			"the server project has not published its signing key yet: pass --allow-unsigned to trust the HTTPS download's SHA-256 alone, or install the server's package",
			"this loams has no key to verify Loams server releases with")
	}
	u, err := url.Parse(manifestURL)
	if err != nil || u.Scheme != "https" && !loopback(u.Hostname()) {
		return false, errs.New(errs.InsecureEndpoint, "use an https:// LOAMS_RELEASES_URL for an unsigned install",
			"an unsigned release must come over HTTPS, not %s", manifestURL).With("url", manifestURL)
	}
	in.Warn("installing an UNSIGNED server release: only the SHA-256 in the manifest from " + u.Host + " protects this download")
	return false, nil
}

func loopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}
