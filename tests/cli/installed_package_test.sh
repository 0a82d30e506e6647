#!/bin/sh
# After `apt-get install ./build/package/lbsim_*.deb` (.ci/run, on a fresh
# Debian machine): the installed lbsim is on PATH, is the built one, runs
# from anywhere, and its man page and completions are where Debian's tools
# look for them.
#
# Usage: tests/cli/installed_package_test.sh   (from the source tree's top)
set -eu
fail() { echo "installed package test: $*" >&2; exit 1; }
source=$(pwd)
[ "$(command -v lbsim)" = /usr/bin/lbsim ] || fail "lbsim is not /usr/bin/lbsim on PATH"
[ "$(dpkg-query -W -f '${Status}' lbsim)" = "install ok installed" ] || fail "lbsim is not installed"
[ "$(lbsim --version)" = "$(build/lbsim --version)" ] || fail "lbsim --version differs from build/lbsim's"
example=$source/traces/examples/steady_pool.json
installed=$(cd / && lbsim -s rr,ll "$example")
[ "$installed" = "$(build/lbsim -s rr,ll "$example")" ] || fail "the installed lbsim reports otherwise"
for file in /usr/share/man/man1/lbsim.1 /usr/share/bash-completion/completions/lbsim \
            /usr/share/zsh/vendor-completions/_lbsim /usr/share/fish/vendor_completions.d/lbsim.fish; do
  dpkg -L lbsim | grep -qx "$file" || fail "the package does not own $file"
  [ -s "$file" ] || fail "$file is missing or empty"
done
offered=$(bash -c '. /usr/share/bash-completion/completions/lbsim
  COMP_WORDS=(lbsim engines f); COMP_CWORD=2; _lbsim; echo "${COMPREPLY[*]}"')
[ "$offered" = fit ] || fail "bash completes 'lbsim engines f' as '$offered', not 'fit'"
echo "installed package test: $(lbsim --version) installed as a Debian package, runs from /"
