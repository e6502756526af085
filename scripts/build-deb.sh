#!/usr/bin/env bash
# Builds the Debian package of credctl from the tree with dpkg's own tools, into OUT_DIR, and
# checks it with lintian (an error fails the build). The files are those `make install
# PREFIX=/usr` installs, laid out as Debian policy asks: the binary stripped, the man page and
# the README compressed, the licence in a Debian copyright file instead of LICENSE (and no
# install manifest: dpkg keeps its own list). Depends come from what the binary links
# (dpkg-shlibdeps); the libraries it opens with dlopen on first use are Recommends.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:?usage: build-deb.sh PATH_TO_CREDCTL OUT_DIR}"
out="${2:?usage: build-deb.sh PATH_TO_CREDCTL OUT_DIR}"
work="$out/work"
# dpkg-dev tools find a package's files in debian/PACKAGE.
root="$work/debian/credctl"
rm -rf "$work" "$out"/credctl_*.deb
mkdir -p "$work/debian"

# The version credctl reports is the upstream version; -1 makes it a Debian revision of it.
upstream="$("$binary" --version)"
upstream="${upstream#credctl }"
version="$upstream-1"

PREFIX=/usr DESTDIR="$root" ./scripts/install.sh "$binary" > /dev/null
doc="$root/usr/share/doc/credctl"
rm "$doc/installed-files" "$doc/LICENSE"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/credctl"
gzip -9n "$root/usr/share/man/man1/credctl.1" "$doc/README.md"
install -m 0644 packaging/debian/copyright "$doc/copyright"
# Dated like the commit it is built from, so building the same tree twice gives the same entry.
date="$(git log -1 --format=%aD 2>/dev/null || date -R)"
maintainer="$(sed -n 's/^Maintainer: //p' packaging/debian/control)"
cat > "$work/debian/changelog" <<EOF
credctl ($version) unstable; urgency=medium

  * Built from the CredentialVault source tree with make deb.

 -- $maintainer  $date
EOF
gzip -9n < "$work/debian/changelog" > "$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"

# Every shared library the sources name by its soname ("libcurl.so.4") is one they dlopen: the
# linked ones come through pkg-config and the linker instead. Recommend the package that ships
# each, unless the binary links it anyway (then it is already a dependency).
cp packaging/debian/control "$work/debian/control"
mkdir "$root/DEBIAN"
(cd "$work" && dpkg-shlibdeps -Tdebian/substvars -edebian/credctl/usr/bin/credctl)
linked="$(sed -n 's/^shlibs:Depends=//p' "$work/debian/substvars" | sed 's/ *([^)]*)//g; s/ *[,|] */\n/g')"
recommends=()
for soname in $(grep -rhoE '"lib[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*\.so\.[0-9]+' Sources | tr -d '"' | sort -u); do
    package="$(dpkg-query -S "*/$soname" 2>/dev/null | sed 's/[:,].*//' | sort -u || true)"
    [ "$(wc -w <<< "$package")" -eq 1 ] || { echo "build-deb: no single installed package ships $soname (found: ${package:-none})" >&2; exit 1; }
    grep -qxF "$package" <<< "$linked" || recommends+=("$package")
done
echo "dlopen:Recommends=$(printf '%s\n' "${recommends[@]}" | paste -sd, | sed 's/,/, /g')" >> "$work/debian/substvars"
(cd "$work" && dpkg-gencontrol -pcredctl -Pdebian/credctl -Tdebian/substvars)
(cd "$root" && find usr -type f -exec md5sum {} + | sort -k2 > DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/md5sums"

deb="$out/credctl_${version}_$(dpkg --print-architecture).deb"
dpkg-deb --root-owner-group --build "$root" "$deb"
echo "lintian $deb:"
lintian --fail-on error "$deb"
echo "Built $deb ($(du -h "$deb" | cut -f1); $(dpkg-deb -f "$deb" Installed-Size) KiB installed)"
