#!/usr/bin/env bash
# The images' base, made without a registry: Debian 12 (bookworm, minbase) with Debian's OpenJDK 17 JRE and the
# user liftride (uid 10001), saved as a docker-archive tar for Jib's tar:// base. As root (installs debootstrap,
# podman and runc with apt-get when missing). Needs a Debian or Ubuntu host. Under sudo, the folders it creates and
# the tar belong to the user who ran sudo, so ~/.cache stays theirs.
# Usage: base-image.sh OUT.tar [MIRROR]; does nothing when OUT.tar exists (delete it to rebuild).
set -euo pipefail
out=$1
mirror=${2:-http://deb.debian.org/debian}
[ -s "$out" ] && exit 0
missing=
for tool in debootstrap podman runc; do command -v "$tool" > /dev/null || missing="$missing $tool"; done
if [ -n "$missing" ]; then
    [ "$(id -u)" = 0 ] || { echo "base-image.sh: not installed:$missing (apt-get install, as root)" >&2; exit 1; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
created=
d=$(dirname "$out")
while [ ! -d "$d" ]; do created="$d $created"; d=$(dirname "$d"); done
mkdir -p "$(dirname "$out")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
debootstrap --variant=minbase --include=openjdk-17-jre-headless bookworm "$work/rootfs" "$mirror" > "$work/log" 2>&1 \
    || { tail -5 "$work/log" >&2; echo "base-image.sh: debootstrap of bookworm from $mirror failed" >&2; exit 1; }
chroot "$work/rootfs" useradd --uid 10001 --user-group --create-home --shell /usr/sbin/nologin liftride
rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/* \
    "$work"/rootfs/usr/share/doc "$work"/rootfs/usr/share/man "$work"/rootfs/usr/share/info
tar -C "$work/rootfs" -c . | podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - liftride-base:debian12-jre17
podman save --quiet --format docker-archive -o "$work/base.tar" liftride-base:debian12-jre17
mv "$work/base.tar" "$out"
if [ -n "${SUDO_UID:-}" ]; then
    chown "$SUDO_UID:$SUDO_GID" $created "$out"
fi
