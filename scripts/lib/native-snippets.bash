# shellcheck shell=bash
# What a native snippet must do against the stand-in to count as run, for
# scripts/run-js-snippets, run-py-snippets and run-native-snippets. The
# stand-in serves the native REST API (internal/testkit/testserver,
# native.go) and logs every request with its status in $TESTSERVER_HEADERS,
# so a native snippet is held to what a reader expects: exit 0, every
# request it made answered 2xx, the route it is about among them, and the
# result it prints is the one the documents of the upsert snippet give.

# The order a reader runs them in: each needs what the one before made.
native_steps=(connect create_collection upsert search hybrid_search sql)

# The request a step is about: it must be in the log with this status.
declare -A native_call=(
  [connect]='"method":"GET","namespace":"[^"]*","path":"/v1/namespaces/default/collections","status":200'
  [create_collection]='"method":"POST","namespace":"[^"]*","path":"/v1/namespaces/default/collections","status":201'
  [upsert]='"method":"POST","namespace":"[^"]*","path":"/v1/namespaces/default/collections/kb/documents","status":200'
  [search]='"method":"POST","namespace":"[^"]*","path":"/v1/namespaces/default/query","status":200'
  [hybrid_search]='"method":"POST","namespace":"[^"]*","path":"/v1/namespaces/default/query","status":200'
  [sql]='"method":"POST","namespace":"[^"]*","path":"/v1/namespaces/default/sql","status":200'
)

# What the output must show. A hit or row is printed as "1 0.03 {…}" (Python,
# JavaScript, Go), "['1', 0.03]" / "[ '1', 0.03 ]" / "[1 0.03]" (rows), or
# raw JSON (curl, some Go snippets). first: the first such line must match
# (document 1, "a refund takes 5 days", ranks first); also: some line must.
hit_line='^[0-9]+ |"pk":"|^\[ ?'"'"'[0-9]|^\[[0-9]+ |"rows":\[\['
declare -A native_first=(
  [search]='^1 |^\{"hits":\[\{"pk":"1"'
  [hybrid_search]='^1 |^\{"hits":\[\{"pk":"1"'
  [sql]='^\[ ?'"'"'1'"'"'|^\[1 |"rows":\[\["1"'
)
declare -A native_also=(
  [connect]='collections'
  [upsert]='token'
  # The vector branch finds document 2 as well: the fusion ran.
  [hybrid_search]='^2 |"pk":"2"'
)

# native_order: the files on stdin sorted by engine and language, the
# native ones in step order.
native_order() {
  local f base i s
  while IFS= read -r f; do
    base=$(basename "$f")
    base=${base%.*}
    i=9
    for s in "${!native_steps[@]}"; do
      [ "${native_steps[$s]}" = "$base" ] && i=$s
    done
    printf '%s %s %s\n' "$(dirname "$f")" "$i" "$f"
  done | sort -k1,1 -k2,2n | cut -d' ' -f3
}

# native_control WHAT WHY: one control run of a search snippet, WHAT
# saying how it was run and WHY its verdict. A control must be caught (WHY
# not empty); one that passes proves the checks prove nothing, and counts
# in the caller's $failed.
native_control() {
  if [ -z "$2" ]; then
    echo "FAIL control: $1 passed: the check proves nothing"
    failed=$((failed + 1))
  else
    echo "ok   control: $1 is caught: $(head -1 <<<"$2")"
  fi
}

# native_verdict STEP RC OUTPUT NEW_LOG_LINES: prints why the run does not
# count (nothing when it does).
native_verdict() {
  local step=$1 rc=$2 out=$3 log=$4 first
  if [ "$rc" -ne 0 ]; then
    echo "exit $rc:"
    sed 's/^/    /' <<<"$out" | grep -v '^    *at ' | tail -6
    return
  fi
  if [ -z "$log" ]; then
    echo "no request reached the stand-in: $out"
    return
  fi
  if grep -v '"status":2[0-9][0-9]' <<<"$log" | grep -q .; then
    echo "a request was not answered 2xx:"
    grep -v '"status":2[0-9][0-9]' <<<"$log" | sed 's/^/    /'
    return
  fi
  if grep '"path":"/v1/' <<<"$log" | grep -q '"authorization":false'; then
    echo "an API request carried no key: was .env.loams read?"
    return
  fi
  if [ -n "${native_call[$step]:-}" ] && ! grep -Eq "${native_call[$step]}" <<<"$log"; then
    echo "the call the snippet is about is not in the log (want ${native_call[$step]}):"
    sed 's/^/    /' <<<"$log"
    return
  fi
  if [ -n "${native_first[$step]:-}" ]; then
    first=$(grep -Em1 "$hit_line" <<<"$out" || true)
    if ! grep -Eq "${native_first[$step]}" <<<"$first"; then
      echo "the first result is not document 1 (first: '${first:-none}'): $out"
      return
    fi
  fi
  if [ -n "${native_also[$step]:-}" ] && ! grep -Eq "${native_also[$step]}" <<<"$out"; then
    echo "the output does not show ${native_also[$step]}: $out"
  fi
}
