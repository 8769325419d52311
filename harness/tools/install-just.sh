#!/usr/bin/env bash
# Installs just(js) from its pinned upstream release into a cache directory (benchmark runners
# only: it downloads from GitHub). Usage: install-just.sh VERSION PREFIX
# Leaves PREFIX/just-VERSION with the runtime built (make runtime-static); prints the directory.
# Upstream's Makefile itself downloads the matching modules and a prebuilt libv8_monolith.a.
set -euo pipefail
version="${1:?usage: install-just.sh VERSION PREFIX}"
prefix="${2:?usage: install-just.sh VERSION PREFIX}"
dir="$prefix/just-$version"
if [ -x "$dir/just" ]; then
  echo "$dir"
  exit 0
fi
for tool in curl make g++ tar; do
  command -v "$tool" >/dev/null || { echo "install-just: $tool is required (apt-get install curl make g++ tar)" >&2; exit 1; }
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# JUST_ARCHIVE_URL replaces the upstream address (tests use a local file:// tarball).
url="${JUST_ARCHIVE_URL:-https://github.com/just-js/just/archive/refs/tags/$version.tar.gz}"
curl -fsSL "$url" -o "$tmp/just.tar.gz"
mkdir -p "$tmp/src"
tar -xzf "$tmp/just.tar.gz" -C "$tmp/src" --strip-components=1
(cd "$tmp/src" && make runtime-static >&2)
mkdir -p "$prefix"
rm -rf "$dir"
mv "$tmp/src" "$dir"
echo "$dir"
