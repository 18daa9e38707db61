#!/usr/bin/env bash
# Builds the current Khronos OpenXR loader (OpenXR-SDK-Source 1.1.61, Apache-2.0) and its api_dump
# and core_validation API layers from Debian's source package openxr-sdk-source 1.1.61~ds-1 (suite
# sid), with Debian's patches applied, so the OpenXR differential suite can compare with it as well
# as with the system's libopenxr-loader1 1.0.20 (Debian 12). sid's binary packages need a newer
# glibc than Debian 12's, hence a build.
#
#   scripts/build-khronos-openxr-loader.sh [OUT]
#
# OUT defaults to build/khronos-openxr-loader-1.1.61 (where the tests look, or point
# KHRONOS_LOADER_XR_KHRONOS_1_1_61 at OUT/lib/libopenxr_loader.so.1). The library path is printed
# last; the layers' manifests are in OUT/share/openxr/1/api_layers/explicit.d. A build whose OUT
# already holds the library of this version is reused.
#
# The Debian mirror is the machine's own (scripts/lib/debian-sources.sh: the first Debian archive of
# the apt sources, or KHRONOS_LOADER_DEBIAN_MIRROR); the files are checked against the SHA-256 sums
# below. Exit status 3 (and one line naming what is missing) when the source cannot be downloaded.
# Needs cmake, a C++ compiler, python3 and libjsoncpp-dev (the loader reads its manifests with the
# system's jsoncpp, as Debian builds it); about a minute for the loader, a few more for api_dump.
set -euo pipefail

PACKAGE=openxr-sdk-source
VERSION=1.1.61~ds
DEBIAN_REVISION=1
declare -A SHA256=(
  ["${PACKAGE}_${VERSION}-${DEBIAN_REVISION}.dsc"]=72f90f098c2e3f7eb0f07ca009a841715cf2e95339183ca9d42f505c28186cd8
  ["${PACKAGE}_${VERSION}.orig.tar.xz"]=a2044b940697607aadcd909b2de286349ad2f40e404b20287e35f9e235523b3f
  ["${PACKAGE}_${VERSION}-${DEBIAN_REVISION}.debian.tar.xz"]=6f22f4277f0f7ca52f4891a4bb2b34ec4dce030a76f55fbd94bf9b32d6d3920a
)

out=$(mkdir -p "${1:-build/khronos-openxr-loader-1.1.61}" && cd "${1:-build/khronos-openxr-loader-1.1.61}" && pwd)
library="$out/lib/libopenxr_loader.so.1"
stamp="$out/.built-from"
built="$PACKAGE $VERSION-$DEBIAN_REVISION loader api_dump core_validation"

# shellcheck source=lib/built-stamp.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/built-stamp.sh"
already_built khronos-openxr-loader "$library" "$stamp" "$built" && exit 0

for tool in cmake c++ python3 patch; do
  command -v "$tool" >/dev/null || { echo "khronos-openxr-loader: needs $tool" >&2; exit 1; }
done
{ [ -f /usr/include/jsoncpp/json/json.h ] || [ -f /usr/include/json/json.h ]; } || { echo "khronos-openxr-loader: needs libjsoncpp-dev" >&2; exit 1; }

# shellcheck source=lib/debian-sources.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/debian-sources.sh"
mirror=$(debian_mirror khronos-openxr-loader)

download="$out/download"
rm -rf "$stamp" "$download"
if ! debian_source_download "$PACKAGE" "$VERSION-$DEBIAN_REVISION" sid "$mirror" "$out" "$download" SHA256; then
  echo "khronos-openxr-loader: MISSING: Debian source package $PACKAGE $VERSION-$DEBIAN_REVISION (not downloadable from $mirror, or not the pinned files)" >&2
  rm -rf "$download"
  exit 3
fi

src="$out/src"
rm -rf "$src" "$out/debian" "$out/build" "$out/lib" "$out/share"
mkdir -p "$src" "$out/debian"
tar -xJf "$download/${PACKAGE}_${VERSION}.orig.tar.xz" -C "$src" --strip-components=1
tar -xJf "$download/${PACKAGE}_${VERSION}-${DEBIAN_REVISION}.debian.tar.xz" -C "$out/debian"
# Debian's patches (the API layers' manifests name their library by absolute path, and are named
# per architecture), in its series order, as dpkg-source applies them.
while read -r patch_name; do
  [ -n "$patch_name" ] && [[ "$patch_name" != \#* ]] || continue
  patch -p1 -s -d "$src" <"$out/debian/debian/patches/$patch_name"
done <"$out/debian/debian/patches/series"

jobs=${KHRONOS_LOADER_BUILD_JOBS:-2}
# Configured as Debian's rules do (all extensions, loader, API layers), minus the tests.
cmake -S "$src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$out" -DCMAKE_INSTALL_LIBDIR=lib \
  -DBUILD_ALL_EXTENSIONS=ON -DBUILD_LOADER=ON -DBUILD_API_LAYERS=ON -DBUILD_WITH_SYSTEM_JSONCPP=ON \
  -DBUILD_TESTS=OFF -DBUILD_CONFORMANCE_TESTS=OFF -DBUILD_SDK_TESTS=OFF -DMANIFEST_SUFFIX=".$(c++ -dumpmachine)" >&2
cmake --build "$out/build" --parallel "$jobs" >&2
cmake --install "$out/build" >&2

[ -f "$library" ] || { echo "khronos-openxr-loader: build finished without $library" >&2; exit 1; }
rm -rf "$src" "$out/debian" "$out/build" "$download"
echo "$built" >"$stamp"
echo "khronos-openxr-loader: built $VERSION in $out" >&2
echo "$library"
