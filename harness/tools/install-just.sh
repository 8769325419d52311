#!/usr/bin/env bash
# install-just.sh: installs just(js) into a cache directory and prints that directory.
#
#   install-just.sh [--system [--sources DIR]] [--pins FILE | VERSION] PREFIX
#
# The version is the pin of harness/toolchains.json (the one place it is named): this checkout's,
# or FILE's with --pins (pr.yml installs the head's pin with the base's script). An explicit
# VERSION is for tests and one-off builds.
#
# Two builds of the same upstream release. They differ in V8 and in how it is linked, so their
# numbers never share a trend line (docs/runners.md says when to use which):
#
#   release (default)  upstream's own build, as the benchmark runners use it: the release tarball,
#                      then `make runtime-static`, whose Makefile downloads the modules and a
#                      prebuilt static V8 (libv8_monolith.a, V8 10.6) from GitHub.
#                      Installs into PREFIX/just-VERSION.
#   --system           the same sources built against the distribution's V8: Debian 12's libnode108
#                      and libnode-dev packages (V8 10.2 inside Node 18's shared library), extracted,
#                      not installed. For machines where upstream's prebuilt V8 cannot be used
#                      (arm64, a dead download link, no route to GitHub). libnode.so is linked
#                      dynamically, also into `just build --static` apps. Installs into
#                      PREFIX/just-VERSION-system.
#     --sources DIR    take upstream's two source tarballs, DIR/just-VERSION.tar.gz and
#                      DIR/modules-VERSION.tar.gz (e.g. ../shared/just), instead of downloading
#                      them from GitHub.
#
# stdout: one line, the installed directory. Use it as JUST_HOME and JUST_TARGET and put it on
# PATH (the line to do that is shown on stderr).
#
# Compiled for x86-64-v2 (-march=x86-64-v2 -mtune=generic), not upstream's -march=native: a
# runtime compiled for an AVX-512 machine dies with SIGILL under Valgrind, which cannot decode
# AVX-512, so its work could not be counted there (docs/counts.md). Every Makefile of the
# installation is rewritten before it compiles (the runtime, its modules, and the apps `just build`
# makes later from the installed Makefile). The flags are in the stamp and in .install-just.flags,
# which the harness records beside the version (toolchains.just). Other architectures keep the
# compiler's default (no -march at all), which is portable too.
#
# Idempotent and verified: an installation is reused only when its stamp matches it (version,
# mode, compile flags, sha256 of the `just` binary, sha256 of every other file `just build` compiles or links
# into an app). A missing or mismatching stamp (an unfinished build, another mode, a binary put
# there by someone else) means the directory is removed and built again. The stamp is written by
# this script after a successful build; it cannot stop someone who can write both the binary and
# the stamp as this account, so untrusted jobs run as another account (docs/runners.md), and any
# file of the installation that another account owns, or that others may write, is refused.
#
# Environment: JUST_ARCHIVE_URL, JUST_MODULES_URL replace the upstream addresses of the two
# tarballs; JUST_DEB_CACHE is where --system keeps the Debian packages (default PREFIX/debs;
# each is checked against apt's index before use).
set -euo pipefail

log() { printf 'install-just: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
usage() { echo "usage: install-just.sh [--system [--sources DIR]] [--pins FILE | VERSION] PREFIX" >&2; exit 2; }

mode=release
sources=
pins=
while [ $# -gt 0 ]; do
  case $1 in
    --system) mode=system; shift ;;
    --sources) [ $# -ge 2 ] || usage; sources=$2; shift 2 ;;
    --sources=*) sources=${1#*=}; shift ;;
    --pins) [ $# -ge 2 ] || usage; pins=$2; shift 2 ;;
    --pins=*) pins=${1#*=}; shift ;;
    -h | --help) usage ;;
    --) shift; break ;;
    -*) log "unknown option: $1"; usage ;;
    *) break ;;
  esac
done
# The "just" entry of a toolchains.json (a pull request's file is read as data, never run).
pinned_version() {
  [ -f "$1" ] || die "--pins: no file $1"
  command -v node >/dev/null || die "reading $1 needs node (apt-get install nodejs)"
  node -e '
    const [file] = process.argv.slice(1);
    let pin;
    try { pin = JSON.parse(require("node:fs").readFileSync(file, "utf8")).just; } catch (e) { console.error(`install-just: error: ${file}: ${e.message}`); process.exit(1); }
    if (typeof pin !== "string") { console.error(`install-just: error: ${file} pins no "just" version`); process.exit(1); }
    process.stdout.write(pin);
  ' "$1"
}

if [ $# -eq 1 ]; then
  version=$(pinned_version "${pins:-$(dirname "$0")/../toolchains.json}") || exit 1
  prefix=$1
elif [ $# -eq 2 ] && [ -z "$pins" ]; then
  version=$1
  prefix=$2
else
  usage
fi
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "the version must look like 0.1.13, got \"$version\"${pins:+ (from $pins)}"
[ -z "$sources" ] || [ "$mode" = system ] || die "--sources is for --system builds (the release build downloads its own V8 and modules)"
if [ -n "$sources" ]; then
  sources=$(cd "$sources" 2>/dev/null && pwd) || die "--sources: no directory $2"
fi

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd) # absolute: a system build records its paths in its Makefile
dir=$prefix/just-$version
[ "$mode" = release ] || dir=$prefix/just-$version-$mode
stamp=$dir/.install-just.stamp

# One installer at a time per cache directory (two CI jobs may share a runner's cache).
if command -v flock >/dev/null; then
  exec 9>"$prefix/.install-just.lock"
  flock 9
fi

# ---- the stamp ---------------------------------------------------------------------------------
# Every regular file of the installation except the stamp and what `just build` rewrites on each
# app build in JUST_TARGET (top-level objects, main.h, builtins.S, debug files).
tree_digest() {
  (
    cd "$dir"
    find . -type f -printf '%P\n' \
      | grep -v -E '^[^/]+\.(o|debug)$|^(builtins\.S|main\.h|\.install-just\.stamp)$' \
      | LC_ALL=C sort \
      | xargs -r -d '\n' sha256sum
  ) | sha256sum | cut -d' ' -f1
}
stamp_text() {
  printf 'version=%s\nmode=%s\nflags=%s\nsha256=%s\nfiles=%s\n' "$version" "$mode" "$march" \
    "$(sha256sum <"$dir/just" | cut -d' ' -f1)" "$(tree_digest)"
}

# The code every Makefile compiles for: x86-64-v2 on x86-64 (Valgrind decodes it on any x86-64
# CPU), the compiler's default elsewhere. JUST_ARCH (tests) stands for `uname -m`.
case ${JUST_ARCH:-$(uname -m)} in
  x86_64) march='-march=x86-64-v2 -mtune=generic' ;;
  *) march='' ;;
esac

# Rewrites upstream's -march=native -mtune=native in the Makefiles under DIR (the runtime's and the
# modules'), and refuses to go on while any is left.
portable_flags() {
  local makefiles
  mapfile -t makefiles < <(find "$1" -name Makefile -type f)
  [ ${#makefiles[@]} -gt 0 ] || die "no Makefile under $1"
  sed -i "s/-march=native -mtune=native/$march/g" "${makefiles[@]}"
  if grep -l -e '-march=native' -e '-mtune=native' "${makefiles[@]}" >&2; then
    die "-march=native is still set in the Makefiles above (upstream changed how it names its flags?)"
  fi
  local target=${march:-"the compiler's default target"}
  log "compiling for $target (not -march=native: Valgrind must decode the runtime to count it)"
}
done_installing() {
  log "ready: export PATH=$dir:\$PATH JUST_HOME=$dir JUST_TARGET=$dir"
  echo "$dir"
  exit 0
}

# A file of the installation that another account (other than root) owns, or that others may
# write: the stamp is this account's record only if nobody else could have rewritten it with the
# binary (the pull-request account of docs/runners.md can write both).
foreign_file() {
  find "$dir" \( ! -user "$(id -u)" ! -user 0 \) -print -quit -o \( ! -type l -perm /022 \) -print -quit
}

if [ -e "$dir" ]; then
  foreign=$(foreign_file)
  if [ -z "$foreign" ] && [ -x "$dir/just" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(stamp_text)" ]; then
    done_installing
  fi
  if [ -n "$foreign" ]; then
    log "$foreign belongs to another account or is writable by others: not this account's installation, building it again"
  elif [ ! -f "$stamp" ]; then
    log "$dir has no stamp (an unfinished build, or not made by this script): building it again"
  else
    log "$dir does not match its stamp (changed since it was built, or another version or mode): building it again"
  fi
  rm -rf "$dir"
fi

need_tools() {
  local missing=()
  for tool in "$@"; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ ${#missing[@]} -eq 0 ] || die "missing tools: ${missing[*]} (apt-get install curl make g++ binutils tar)"
}

tmp=$(mktemp -d)
building=
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
  rm -rf "$tmp"
  # Nothing half-built stays behind (a later run would rebuild it anyway: it has no stamp).
  if [ -n "$building" ]; then rm -rf "$dir"; fi
}
trap cleanup EXIT

# ---- release: upstream's build -----------------------------------------------------------------
build_release() {
  need_tools curl make g++ tar
  local url=${JUST_ARCHIVE_URL:-https://github.com/just-js/just/archive/refs/tags/$version.tar.gz}
  log "downloading $url"
  curl -fsSL "$url" -o "$tmp/just.tar.gz"
  mkdir -p "$tmp/src"
  tar -xzf "$tmp/just.tar.gz" -C "$tmp/src" --strip-components=1
  log "make modules deps/v8/libv8_monolith.a (downloads the modules and V8 $version's libv8_monolith.a)"
  (cd "$tmp/src" && make modules deps/v8/libv8_monolith.a >&2)
  # The modules' Makefiles exist only once downloaded: the flags are rewritten after, before any compile.
  portable_flags "$tmp/src"
  log "make runtime-static"
  (cd "$tmp/src" && make runtime-static >&2)
  [ -x "$tmp/src/just" ] || die "make runtime-static produced no just binary"
  building=1 # until it is checked and stamped
  mv "$tmp/src" "$dir" # built elsewhere, moved in whole
}

# ---- system: against the distribution's V8 ----------------------------------------------------
run_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }

can_root() { [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; }

# Installs the named packages that are missing (needs root or passwordless sudo).
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  can_root || die "missing packages: ${missing[*]}; run: sudo apt-get install -y ${missing[*]}"
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive run_root apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# Prints the path of PACKAGE's .deb (apt's candidate version) in the deb cache, downloading it when
# it is absent; either way its sha256 must equal the one in apt's index.
fetch_deb() {
  local pkg=$1 debs=$2 info file want
  info=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null) || true
  if [ -z "$info" ] && can_root; then
    run_root apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
    info=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null) || true
  fi
  [ -n "$info" ] || die "apt knows no package $pkg (the system build needs Debian 12's libnode108 and libnode-dev, V8 10.2)"
  file=$debs/$(basename "$(sed -n 's/^Filename: //p' <<<"$info")")
  want=$(sed -n 's/^SHA256: //p' <<<"$info")
  if [ ! -f "$file" ] || [ "$(sha256sum <"$file" | cut -d' ' -f1)" != "$want" ]; then
    rm -f "$file"
    # apt-get download runs as the calling user; as root it warns that _apt cannot write here.
    (cd "$debs" && apt-get download -qq "$pkg" >/dev/null 2>&1) \
      || die "apt-get download $pkg failed"
    [ -f "$file" ] || die "apt-get download $pkg did not write $file"
    [ "$(sha256sum <"$file" | cut -d' ' -f1)" = "$want" ] || die "$file does not match apt's sha256"
  fi
  echo "$file"
}

get_tarball() { # NAME URL -> $tmp/NAME-VERSION.tar.gz
  local name=$1 url=$2 out=$tmp/$1-$version.tar.gz
  if [ -n "$sources" ]; then
    [ -f "$sources/$name-$version.tar.gz" ] || die "no $sources/$name-$version.tar.gz"
    cp "$sources/$name-$version.tar.gz" "$out"
  else
    need_tools curl
    log "downloading $url"
    curl -fsSL "$url" -o "$out"
  fi
}

build_system() {
  if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
    die "--system needs a Debian system (apt-get, dpkg-deb)"
  fi
  local multiarch libnode=(libnode108 libnode-dev) debs v8 v8lib v8inc
  get_tarball just "${JUST_ARCHIVE_URL:-https://github.com/just-js/just/archive/refs/tags/$version.tar.gz}"
  get_tarball modules "${JUST_MODULES_URL:-https://github.com/just-js/modules/archive/refs/tags/$version.tar.gz}"

  # Compilers, and the shared libraries libnode.so itself needs (the lib* packages it depends on).
  apt_install g++ make binutils tar
  multiarch=$(gcc -print-multiarch)
  debs=${JUST_DEB_CACHE:-$prefix/debs}
  mkdir -p "$debs"
  debs=$(cd "$debs" && pwd)
  for p in "${libnode[@]}"; do fetch_deb "$p" "$debs" >"$tmp/$p.path"; done
  # shellcheck disable=SC2046 # one word per package name
  apt_install $(dpkg-deb -f "$(cat "$tmp/libnode108.path")" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g' | grep '^lib')

  building=1
  mkdir -p "$dir"
  log "unpacking just $version and its modules into $dir"
  tar -xzf "$tmp/just-$version.tar.gz" -C "$dir" --strip-components=1
  mkdir -p "$dir/modules"
  tar -xzf "$tmp/modules-$version.tar.gz" -C "$dir/modules" --strip-components=1
  grep -q "^RELEASE=$version\$" "$dir/Makefile" || die "the just tarball is not release $version"

  # Debian's V8: headers and libnode.so, extracted into the installation.
  v8=$dir/system-v8
  for p in "${libnode[@]}"; do dpkg-deb -x "$(cat "$tmp/$p.path")" "$v8"; done
  v8inc=$v8/usr/include/node
  v8lib=$v8/usr/lib/$multiarch
  if [ ! -f "$v8inc/v8.h" ] || [ ! -e "$v8lib/libnode.so" ]; then
    die "libnode-dev has no v8.h or libnode.so for $multiarch"
  fi
  if ldd "$v8lib/libnode.so" | grep -q 'not found'; then
    ldd "$v8lib/libnode.so" | grep 'not found' >&2
    die "libnode.so misses shared libraries"
  fi

  # Adapting upstream's Makefiles, without touching any C++ source:
  #  * the two download targets find their results already in place, so make never runs them:
  #    `modules` is the unpacked tarball, deps/v8 holds Debian's headers and an empty archive
  #    standing in for libv8_monolith.a;
  #  * every link (runtime, modules, apps) adds libnode.so, with its directory as rpath;
  #  * apps built with --static are linked dynamically (there is no static libnode);
  #  * V8's pointer compression is declared only where this V8 was built with it;
  #  * -m64 is an x86 option.
  mkdir -p "$dir/deps/v8"
  ln -sfn "$v8inc" "$dir/deps/v8/include"
  ar rcs "$dir/deps/v8/libv8_monolith.a"
  local makefiles=("$dir/Makefile" "$dir"/modules/*/Makefile)
  sed -i "s|^LFLAG=\${LFLAGS}\$|LFLAG=\${LFLAGS} -L$v8lib -lnode -Wl,-rpath,$v8lib|" "$dir/Makefile"
  grep -q -- "-lnode -Wl,-rpath,$v8lib\$" "$dir/Makefile" || die "could not add libnode to the Makefile's link flags"
  # shellcheck disable=SC2016 # $(CC) is make's
  sed -i 's/^\(\t$(CC) -g\) -static /\1 /' "$dir/Makefile"
  ! grep -q -- ' -static ' "$dir/Makefile" || die "could not drop -static from the Makefile"
  if ! grep -q "'v8_enable_pointer_compression': 1" "$v8inc/config.gypi"; then
    sed -i 's/ -DV8_COMPRESS_POINTERS//g' "${makefiles[@]}"
  fi
  [ "$(uname -m)" = x86_64 ] || sed -i 's/ -m64 / /g' "${makefiles[@]}"
  portable_flags "$dir"

  log "make runtime (against V8 $(sed -n 's/^#define V8_\(MAJOR\|MINOR\)_VERSION \([0-9]*\)$/\2/p' "$v8inc/v8-version.h" | paste -sd.) from $(basename "$(cat "$tmp/libnode108.path")"))"
  (cd "$dir" && make runtime >"$tmp/make.log" 2>&1) || { tail -n 30 "$tmp/make.log" >&2; die "make runtime failed"; }
  [ -x "$dir/just" ] || die "make runtime produced no just binary"
}

# The new runtime must say it is VERSION (`just eval`: 0.1.x has no --version flag).
check_version() {
  local out
  out=$("$dir/just" eval 'just.print(just.version.just)' </dev/null) || true
  [ "$out" = "$version" ] || die "the new runtime says it is version \"$out\", not $version"
}

# Runs the new runtime on a pipe, and builds and runs a `just build --clean --static` app.
self_test() {
  local out t=$tmp/selftest
  export PATH=$dir:$PATH JUST_HOME=$dir JUST_TARGET=$dir
  mkdir -p "$t"
  cat >"$t/count.js" <<'EOF'
if (!just.library) just.library = name => just.load(name)
const { net } = just.library('net')
const { sys } = just.library('sys')
const buf = new ArrayBuffer(65536)
let bytes = 0
for (let n; (n = net.read(sys.STDIN_FILENO, buf, 0, buf.byteLength)) > 0;) bytes += n
just.print(bytes)
EOF
  out=$(head -c 1000000 /dev/zero | just "$t/count.js")
  [ "$out" = 1000000 ] || die "self-test: the runtime counted \"$out\" bytes of 1000000"
  echo "module.exports = { main: 'count.js' }" >"$t/count.config.js"
  (cd "$t" && just build count.js --clean --static >"$t/build.log" 2>&1) || true
  [ -x "$t/count" ] || { tail -n 20 "$t/build.log" >&2; die "self-test: just build --clean --static produced no binary"; }
  out=$(head -c 1000000 /dev/zero | "$t/count")
  [ "$out" = 1000000 ] || die "self-test: the static app counted \"$out\" bytes of 1000000"
  rm -f "$dir/count" "$dir/count.debug"
  log "self-test ok: just $version (V8 $(just eval 'just.print(just.version.v8)' </dev/null)) reads a pipe and builds a static app"
}

if [ "$mode" = release ]; then
  build_release
  check_version
else
  build_system
  check_version
  self_test
fi
printf '%s\n' "$march" >"$dir/.install-just.flags"
chmod -R go-w "$dir" # upstream's tarballs carry group-writable modes; nobody else may write here
stamp_text >"$stamp"
building=
done_installing
