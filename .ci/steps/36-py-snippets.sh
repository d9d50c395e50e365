#!/usr/bin/env bash
# The Python snippets run as pasted on Debian's python3 against a stack of the
# stand-in, reading .env.loams themselves (scripts/run-py-snippets): psycopg
# from apt; qdrant-client and elasticsearch 8 (not in Debian) through labeled
# import-only stubs.
set -euo pipefail
if ! /usr/bin/python3 -c 'import psycopg' 2>/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-psycopg >/dev/null
fi
scripts/run-py-snippets
