#!/usr/bin/env bash
# A real freedesktop Secret Service for the keyring tests: a session bus and
# an unlocked gnome-keyring, headless. Not dbus-x11: with it, godbus starts
# stray buses and daemons by itself whenever no bus is set.
set -euo pipefail
if ! command -v gnome-keyring-daemon >/dev/null || ! command -v secret-tool >/dev/null || ! command -v dbus-run-session >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gnome-keyring dbus libsecret-tools >/dev/null
fi
# The keyring lives in a throwaway HOME; the Go caches stay where they are.
GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)" GOPATH="$(go env GOPATH)"
export GOCACHE GOMODCACHE GOPATH
keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT
HOME="$keyring_home" dbus-run-session -- sh -c \
  'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; LOAMS_KEYRING_TEST=1 go test -count=1 -run Keyring ./...'
