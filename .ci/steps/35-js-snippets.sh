#!/usr/bin/env bash
# The JavaScript snippets run under Node in a fresh `npm init -y` app with the
# real client packages, against a stack of the stand-in (scripts/run-js-snippets).
set -euo pipefail
scripts/run-js-snippets
