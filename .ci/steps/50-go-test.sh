#!/usr/bin/env bash
# The whole suite again under the race detector: the supervisor, the
# spinner and the MCP server are concurrent. `go test ./...` (the README's
# command) already ran first, without it, in .ci/run.
#
# This run also builds with Go's own default, -buildvcs=auto, whatever the
# machine's GOFLAGS say (this image sets -buildvcs=false): a user's clone
# stamps its binaries with a pseudo-version, and the tests must hold for
# those builds too. Where git cannot read this checkout (one owned by
# another user, say), builds carry no stamp anyway: say so and go on.
set -euo pipefail
GOFLAGS="${GOFLAGS:-}"
if git status --porcelain >/dev/null 2>&1; then
  GOFLAGS="${GOFLAGS//-buildvcs=false/} -buildvcs=auto"
else
  echo "50-go-test: git cannot read this checkout; building with GOFLAGS='$GOFLAGS'" >&2
fi
GOFLAGS="$GOFLAGS" go test -race -count=1 ./...
