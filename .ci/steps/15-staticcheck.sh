#!/usr/bin/env bash
# staticcheck: bugs, dead code and deprecated APIs that vet does not see.
# Pinned to a release the Go module proxy serves that understands this
# module's Go version (v0.8.2 runs with Go 1.26); `go run pkg@version`
# keeps its dependencies out of go.mod. Zero findings, or the stage fails.
set -euo pipefail
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
