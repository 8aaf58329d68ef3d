#!/usr/bin/env bash
# Builds looptale-asr (server/voice/native/looptale-asr.c: a persistent pocketsphinx decoder) against Debian's
# libpocketsphinx (apt-get install gcc pkg-config libpocketsphinx-dev libsphinxbase-dev). The binary goes to
# .cache/asr/looptale-asr-<first 16 hex of the source's sha256> (outside git); the server looks for that name, so a
# changed source is never served by an old binary. Without a compiler or the headers the server decodes with
# pocketsphinx_continuous instead (slower) and says so; `--require` makes that an error (CI).
set -euo pipefail
cd "$(dirname "$0")/.."
require=0
[ "${1:-}" = "--require" ] && require=1
src=server/voice/native/looptale-asr.c
hash=$(sha256sum "$src" | cut -c1-16)
out=.cache/asr/looptale-asr-$hash
fail() {
  echo "build-asr: $1: the server will decode with pocketsphinx_continuous (slower)." >&2
  exit "$require"
}
if [ -x "$out" ]; then
  echo "build-asr: $out is up to date"
  exit 0
fi
command -v "${CC:-cc}" >/dev/null 2>&1 || fail "no C compiler (apt-get install gcc)"
command -v pkg-config >/dev/null 2>&1 || fail "no pkg-config (apt-get install pkg-config)"
flags=$(pkg-config --cflags --libs pocketsphinx sphinxbase 2>/dev/null) || fail "no libpocketsphinx headers (apt-get install libpocketsphinx-dev libsphinxbase-dev)"
mkdir -p .cache/asr
tmp=$(mktemp .cache/asr/.build-XXXXXX)
# shellcheck disable=SC2086
"${CC:-cc}" -O2 -Wall -Wextra -o "$tmp" "$src" $flags || { rm -f "$tmp"; fail "the compiler failed"; }
chmod 755 "$tmp"
mv -f "$tmp" "$out"
# Older builds of other sources go.
find .cache/asr -maxdepth 1 -name 'looptale-asr-*' ! -name "looptale-asr-$hash" -delete
echo "build-asr: built $out"
