#!/usr/bin/env bash
# Formatting and vet: cheap, so they run before the long stages.
set -euo pipefail
go mod download
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go build ./...
