#!/usr/bin/env bash
# The whole suite again under the race detector: the supervisor, the
# spinner and the MCP server are concurrent. `go test ./...` (the README's
# command) already ran first, without it, in .ci/run.
#
# This run also builds with Go's own default, -buildvcs=auto, whatever the
# machine's GOFLAGS say (this image sets -buildvcs=false): a user's clone
# stamps its binaries with a pseudo-version, and the tests must hold for
# those builds too.
set -euo pipefail
GOFLAGS="${GOFLAGS:-}"
GOFLAGS="${GOFLAGS//-buildvcs=false/} -buildvcs=auto" go test -race -count=1 ./...
