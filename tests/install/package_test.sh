#!/usr/bin/env bash
# package_test.sh BUILD_DIR - gpumem installed like a real tool, without root: `cmake --install` into a
# prefix, then `cpack -G DEB` from the build folder, the package's control fields, and the package
# unpacked with `dpkg-deb -x` into a temporary root: the unpacked gpumem runs (--version, list,
# explain), its manual page renders and names every command and option that --help names, the bash
# completion loads and completes, the docs are there. Skipped (77) without cpack or dpkg-deb.
set -uo pipefail
build=$(readlink -f "$1")
for t in cpack dpkg-deb; do
  command -v "$t" >/dev/null 2>&1 || { echo "skipped: $t is not installed"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
full=$("$build/gpumem" --version | awk '{ print $2 }')   # 0.1.0+COMMIT[.modified]: the commit is build metadata
ver=${full%%+*}

# 1. cmake --install puts the binary, the manual page, the completion and the docs under a prefix
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install"; }
for f in bin/gpumem share/man/man1/gpumem.1 share/bash-completion/completions/gpumem share/doc/gpumem/README.md \
         share/doc/gpumem/METHODOLOGY.md share/doc/gpumem/MODEL.md; do
  [ -s "$tmp/prefix/$f" ] || fail "cmake --install did not put $f"
done

# 2. the Debian package
(cd "$build" && cpack -G DEB -B "$tmp/pkg") >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/pkg/gpumem_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { cat "$tmp/cpack.log"; fail "cpack wrote no gpumem_*.deb"; }
dpkg-deb -f "$deb" >"$tmp/control"
field() { sed -n "s/^$1: //p" "$tmp/control"; }
[ "$(field Package)" = gpumem ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$ver" ] || fail "Version '$(field Version)' is not the project's ($ver)"
[[ $(field Maintainer) == *\<*@*\>* ]] || fail "no Maintainer with an address"
[ -n "$(field Description)" ] || fail "no Description"
deps=$(field Depends)
[[ $deps == *libc6* ]] || fail "Depends lacks libc6: '$deps'"
[[ ${deps,,} =~ nvidia|cuda|jansson|zlib|libz ]] && fail "Depends names a driver or a static library: '$deps'"
[[ $(field Suggests) == *libcuda1* ]] || fail "Suggests lacks the driver's libcuda1"

# 3. unpacked into a temporary root, it runs from there
root=$tmp/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x"
bin=$root/usr/bin/gpumem
[ -x "$bin" ] || fail "no usr/bin/gpumem in the package"
if command -v ldd >/dev/null; then
  ldd "$bin" >"$tmp/ldd" 2>&1
  grep -Eq 'jansson|libz\.|cudart' "$tmp/ldd" && { cat "$tmp/ldd"; fail "jansson, zlib and cudart must be linked statically"; }
fi
[ "$("$bin" --version)" = "gpumem $full" ] || fail "unpacked gpumem --version"
"$bin" list >"$tmp/list" || fail "unpacked gpumem list"
grep -q '^copy\.' "$tmp/list" || fail "gpumem list shows no copy case"
"$bin" explain --type float 'lane*2' >"$tmp/explain" || fail "unpacked gpumem explain"
grep -q 'sectors' "$tmp/explain" || { cat "$tmp/explain"; fail "explain printed no sectors"; }
for f in README.md METHODOLOGY.md SCHEMA.md families/stride.md; do
  [ -s "$root/usr/share/doc/gpumem/$f" ] || fail "no usr/share/doc/gpumem/$f"
done
[ -s "$root/usr/share/gpumem/baselines/nvidia-h200.json" ] || fail "no usr/share/gpumem/baselines/nvidia-h200.json"

# 4. the manual page renders, and names every command and every option --help names
page=$root/usr/share/man/man1/gpumem.1
if command -v man >/dev/null; then
  MANWIDTH=100 man -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" || { cat "$tmp/man.err"; fail "man -l gpumem.1"; }
elif command -v groff >/dev/null; then
  groff -man -Tutf8 "$page" >"$tmp/man.txt" 2>"$tmp/man.err" || fail "groff -man gpumem.1"
elif command -v mandoc >/dev/null; then
  mandoc "$page" >"$tmp/man.txt" 2>"$tmp/man.err" || fail "mandoc gpumem.1"
else
  echo "skipped: no man, groff or mandoc to render the page"; exit 77
fi
[ -s "$tmp/man.err" ] && { cat "$tmp/man.err"; fail "the manual page renders with warnings"; }
sed 's/.\x08//g' "$tmp/man.txt" >"$tmp/man.plain"
cmds=$("$bin" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ "$(echo "$cmds" | wc -l)" -ge 10 ] || fail "gpumem --help lists $(echo "$cmds" | wc -l) commands"
for c in $cmds; do
  grep -q "gpumem $c" "$tmp/man.plain" || fail "the manual has no section for '$c'"
  for o in $("$bin" "$c" --help | grep -oE '^  (-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
    grep -q -- "$o" "$tmp/man.plain" || fail "the manual lacks '$c $o' that --help shows"
  done
done

# 5. the bash completion loads, and completes commands, options, cases and option values
comp=$root/usr/share/bash-completion/completions/gpumem
[ "$(bash -c "source '$comp' && complete -p gpumem")" = "complete -F _gpumem gpumem" ] || fail "complete -p gpumem"
complete_line() {  # complete_line WORD... (the last is the word being completed)
  PATH="$root/usr/bin:$PATH" bash -c "source '$comp'; COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\$# - 1)); _gpumem;
    printf '%s\n' \"\${COMPREPLY[@]}\"" _ "$@"
}
gives() {  # gives WANTED WORD...: the completion of WORD... offers WANTED
  local want=$1; shift
  complete_line "$@" >"$tmp/comp"
  grep -qx -- "$want" "$tmp/comp" || fail "completion: '$*' does not offer '$want'"
}
gives run gpumem ru
gives --json gpumem run --js
gives copy gpumem run cop
gives copy.memcpy_d2d gpumem list copy.memcpy
gives --counters gpumem selftest --
gives explain gpumem help exp
[ "$(complete_line gpumem explain --space '' | sort | tr '\n' ' ')" = "global shared " ] ||
  fail "completion: explain --space does not give global shared"
echo "package test: ok ($(basename "$deb"), Depends: $deps)"
