#!/usr/bin/env bash
# The native REST API's Go, shell and TypeScript snippets run against a stack
# of the stand-in, which serves that API (scripts/run-native-snippets): every
# call must answer 2xx and print the expected result.
set -euo pipefail
if ! command -v node >/dev/null || ! command -v curl >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm curl >/dev/null
fi
export LOAMS_CACHE
scripts/run-native-snippets
