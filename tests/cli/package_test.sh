#!/bin/sh
# Builds the Debian package with CPack, checks what it holds and declares,
# and runs the lbsim it installs on an example, which must print what the
# built lbsim prints.
#
# Usage: package_test.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR
# Exit 77 (skipped) where dpkg-deb is missing: CPack writes .deb files
# without it, but this test reads one with it.
set -eu
build=$1 source=$2 scratch=$3
command -v dpkg-deb >/dev/null || { echo "dpkg-deb not installed"; exit 77; }
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "package test: $*" >&2; exit 1; }

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch" >"$scratch/cpack.log" 2>&1 ||
  { cat "$scratch/cpack.log"; fail "cpack failed"; }
set -- "$scratch"/lbsim_*.deb
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected one lbsim_*.deb in $scratch, got: $*"
deb=$1

# What it installs: lbsim, its man page and three completion scripts, no more.
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sort >"$scratch/files"
cat >"$scratch/expected" <<'EOF'
./usr/bin/lbsim
./usr/share/bash-completion/completions/lbsim
./usr/share/fish/vendor_completions.d/lbsim.fish
./usr/share/man/man1/lbsim.1
./usr/share/zsh/vendor-completions/_lbsim
EOF
diff -u "$scratch/expected" "$scratch/files" || fail "unexpected files in the package"

# What it declares.
[ "$(dpkg-deb -f "$deb" Package)" = lbsim ] || fail "Package is not lbsim"
version=$("$build/lbsim" --version)
[ "lbsim $(dpkg-deb -f "$deb" Version)" = "$version" ] ||
  fail "Version $(dpkg-deb -f "$deb" Version) is not lbsim --version's ($version)"
for lib in libc6 libfmt9 libstdc++6 libzstd1 zlib1g; do
  dpkg-deb -f "$deb" Depends | grep -q "$lib" || fail "Depends does not name $lib"
done
# Every shared library the binary needs comes from a package it depends on.
if command -v dpkg >/dev/null; then
  for lib in $(ldd "$build/lbsim" | awk '$3 ~ /^\// { print $3 }'); do
    pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | head -1 | cut -d: -f1) || continue
    [ -n "$pkg" ] || continue
    dpkg-deb -f "$deb" Depends | grep -q "$pkg" || fail "$lib is in $pkg, which Depends does not name"
  done
fi

# The installed lbsim runs, from anywhere, as the built one does.
dpkg-deb -x "$deb" "$scratch/root"
example=$source/traces/examples/steady_pool.json
(cd / && "$scratch/root/usr/bin/lbsim" -s rr,ll "$example") >"$scratch/installed.txt"
"$build/lbsim" -s rr,ll "$example" >"$scratch/built.txt"
cmp -s "$scratch/built.txt" "$scratch/installed.txt" ||
  fail "the installed lbsim prints another report than the built one"
for shell in bash zsh fish; do
  "$build/lbsim" completions $shell >"$scratch/$shell.expected"
done
cmp -s "$scratch/bash.expected" "$scratch/root/usr/share/bash-completion/completions/lbsim" ||
  fail "the bash completion is not the built lbsim's"
cmp -s "$scratch/zsh.expected" "$scratch/root/usr/share/zsh/vendor-completions/_lbsim" ||
  fail "the zsh completion is not the built lbsim's"
cmp -s "$scratch/fish.expected" "$scratch/root/usr/share/fish/vendor_completions.d/lbsim.fish" ||
  fail "the fish completion is not the built lbsim's"
cmp -s "$source/docs/lbsim.1" "$scratch/root/usr/share/man/man1/lbsim.1" ||
  fail "the man page is not docs/lbsim.1"
grep -q "^\.TH LBSIM 1 .* \"$version\"" "$source/docs/lbsim.1" ||
  fail "docs/lbsim.1's title line does not name $version"
echo "package test: $(basename "$deb") holds lbsim, its man page and completions, and runs"
