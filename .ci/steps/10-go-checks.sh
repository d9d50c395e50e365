#!/usr/bin/env bash
# Formatting, vet and the CI scripts themselves: cheap, so they run before
# the long stages. .ci/run must stay POSIX sh (the README path runs on stock
# macOS too), so shellcheck reads it as sh.
set -euo pipefail
go mod download
unformatted=$(git ls-files -z '*.go' | xargs -0 gofmt -l)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go build ./...
if ! command -v shellcheck >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends shellcheck >/dev/null
fi
shellcheck -s sh .ci/run
shellcheck -S warning .ci/steps/*.sh
