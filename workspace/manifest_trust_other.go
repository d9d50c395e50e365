//go:build !unix

package workspace

// untrusted: Windows has no uid/mode bits to compare; its ACLs are the
// user profile's.
func untrusted(string) string { return "" }

func fixFor(path string) string { return "make " + path + " yours" }
