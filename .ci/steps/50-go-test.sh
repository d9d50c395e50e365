#!/usr/bin/env bash
# The README's test command.
set -euo pipefail
go test -race -count=1 ./...
