// Package filehash is the SHA-256 of a file as loams writes and compares
// it everywhere (snapshot manifests, server archives, update downloads,
// MCP bundles): lower-case hex, read as a stream so a large file is never
// held in memory.
package filehash

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
)

// SHA256 is the hex SHA-256 of the file at path.
func SHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sum, _, err := Reader(f)
	return sum, err
}

// Reader is the hex SHA-256 of what r holds and how many bytes it held.
func Reader(r io.Reader) (string, int64, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return "", n, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
