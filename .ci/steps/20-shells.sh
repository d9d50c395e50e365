#!/usr/bin/env bash
# Shell completion in the real shells: `loams st<TAB>` and `loams stack
# cr<TAB>` typed into bash, zsh and fish through tmux. `go test ./...`
# skipped what was missing; here the shells are installed and a skip fails.
set -euo pipefail
if ! command -v zsh >/dev/null || ! command -v fish >/dev/null || ! command -v tmux >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends zsh fish tmux >/dev/null
fi
LOAMS_REQUIRE_SHELLS=1 go test -count=1 -v -run 'Completion' ./commands | grep -E '^(=== RUN|--- |ok|FAIL|PASS)|SKIP' 
