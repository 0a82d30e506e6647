#!/bin/sh
# Installs the Debian package on a clean Debian 12 made with debootstrap
# (what a container from docs/Containerfile starts from) and runs the
# lbsim it installs there: the dependencies the package declares must be
# all it needs. Too slow for every CI run (a few minutes: debootstrap
# downloads a minimal system); run by hand, as root, with the Debian
# archive reachable (docs/install.md):
#
#   tests/cli/clean_debian_install_test.sh build/lbsim_0.1.0_amd64.deb /tmp/clean-debian
#
# Exit status: 0 installed and ran; 1 it did not; 2 misuse.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 PACKAGE.deb ROOT_DIR" >&2; exit 2; }
deb=$1 root=$2
[ "$(id -u)" = 0 ] || { echo "$0: run as root (debootstrap and chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "$0: apt-get install debootstrap" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)

if [ ! -x "$root/usr/bin/apt-get" ]; then
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
fi
cp "$deb" "$root/tmp/lbsim.deb"
cp "$here/traces/examples/steady_pool.json" "$root/tmp/steady_pool.json"
mount -t proc proc "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" apt-get update
chroot "$root" apt-get install -y --no-install-recommends /tmp/lbsim.deb
chroot "$root" lbsim --version
chroot "$root" lbsim -s rr,ll /tmp/steady_pool.json >"$root/tmp/report.txt"
"$here/build/lbsim" -s rr,ll "$here/traces/examples/steady_pool.json" >"$root/tmp/expected.txt"
# The report names its trace's path, which differs: compare the rest.
sed 1d "$root/tmp/report.txt" >"$root/tmp/report.body"
sed 1d "$root/tmp/expected.txt" >"$root/tmp/expected.body"
cmp "$root/tmp/expected.body" "$root/tmp/report.body"
chroot "$root" sh -c 'test -f /usr/share/man/man1/lbsim.1 &&
  test -f /usr/share/bash-completion/completions/lbsim &&
  test -f /usr/share/zsh/vendor-completions/_lbsim &&
  test -f /usr/share/fish/vendor_completions.d/lbsim.fish'
echo "clean Debian install: $(chroot "$root" lbsim --version) installed from $(basename "$deb") and ran"
