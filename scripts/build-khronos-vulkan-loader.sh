#!/usr/bin/env bash
# Builds the current Khronos Vulkan loader (Vulkan-Loader 1.4.309.0, Apache-2.0) from Debian's own
# source package (trixie's vulkan-loader 1.4.309.0-1, whose orig tarball carries Vulkan-Headers
# 1.4.309 in vulkan-headers/), so the differential suite can compare with it as well as with the
# system's libvulkan1 1.3.239 (Debian 12). Trixie's binary package needs glibc 2.38; Debian 12 has
# 2.36, hence a build.
#
#   scripts/build-khronos-vulkan-loader.sh [OUT]
#
# OUT defaults to build/khronos-vulkan-loader-1.4.309 (where the tests look, or point
# KHRONOS_LOADER_VK_KHRONOS_CURRENT at OUT/lib/libvulkan.so.1). The library path is printed last.
# A build whose OUT already holds the library of this version is reused.
#
# The Debian mirror is the machine's own: the first Debian archive URI in its apt sources
# (/etc/apt/sources.list, /etc/apt/sources.list.d/*.list and *.sources), or KHRONOS_LOADER_DEBIAN_MIRROR
# when set; no host is written in this repository. The source comes through apt-get with a private
# configuration written under OUT (a deb-src list of trixie on that mirror, its own lists and cache:
# nothing system-wide changes), so apt checks the archive's signature and the files' checksums.
# Where apt-get cannot be used (no apt, no keyring) the same files are downloaded from that mirror's
# pool and checked against the SHA-256 sums below.
# Like Debian's rules, loader/generated is regenerated from the 1.4.309 registry (python3).
# WSI is on for X11 (Xlib, with Xrandr), XCB and Wayland, as Debian builds it: a Khronos loader built
# without its window systems drops the surface extensions from its instance-extension list, and the
# differential suite compares that list with ours, which implements them (docs/conformance.md). Needs
# cmake, a C compiler, python3 (Vulkan-Headers' CMake), pkg-config and Debian's libx11-dev,
# libxrandr-dev, libxcb1-dev and libwayland-dev; about a minute on 2 cores.
set -euo pipefail

VERSION=1.4.309.0
DEBIAN_REVISION=1
declare -A SHA256=(
  ["vulkan-loader_${VERSION}-${DEBIAN_REVISION}.dsc"]=0f0c958cf579c47b6c8da0332bb37d8dbc86320561e1ce1275238f004f0a1063
  ["vulkan-loader_${VERSION}.orig.tar.xz"]=6e37284e5c8ef5f06cef273cc207f0b31cb3b63c1ea2875639e843b01da4e6d7
)

out=$(mkdir -p "${1:-build/khronos-vulkan-loader-1.4.309}" && cd "${1:-build/khronos-vulkan-loader-1.4.309}" && pwd)
library="$out/lib/libvulkan.so.1"
stamp="$out/.built-from"

# shellcheck source=lib/built-stamp.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/built-stamp.sh"
already_built khronos-vulkan-loader "$library" "$stamp" "vulkan-loader $VERSION-$DEBIAN_REVISION wsi-xlib-xcb-wayland" && exit 0

for tool in cmake cc; do
  command -v "$tool" >/dev/null || { echo "khronos-vulkan-loader: needs $tool" >&2; exit 1; }
done

# debian_mirror_from_apt_sources (the machine's Debian mirror) and debian_source_download.
# shellcheck source=lib/debian-sources.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/debian-sources.sh"

mirror=$(debian_mirror khronos-vulkan-loader)
download="$out/download"
rm -rf "$stamp" "$download"
orig="$download/vulkan-loader_${VERSION}.orig.tar.xz"
debian_source_download vulkan-loader "$VERSION-$DEBIAN_REVISION" trixie "$mirror" "$out" "$download" SHA256

src="$out/src"
rm -rf "$src" "$out/build-headers" "$out/build-loader" "$out/headers" "$out/lib"
mkdir -p "$src"
tar -xJf "$orig" -C "$src" --strip-components=1

jobs=${KHRONOS_LOADER_BUILD_JOBS:-2}
# Vulkan-Headers first (the loader's CMake finds them by VULKAN_HEADERS_INSTALL_DIR, as Debian's rules do).
cmake -S "$src/vulkan-headers" -B "$out/build-headers" -DCMAKE_INSTALL_PREFIX="$out/headers" \
  -DVULKAN_HEADERS_ENABLE_MODULE=OFF -DCMAKE_BUILD_TYPE=Release >&2
cmake --build "$out/build-headers" --parallel "$jobs" >&2
cmake --install "$out/build-headers" >&2

# Configured as Debian builds it (SYSCONFDIR=/etc, the default; release; X11, XCB and Wayland on).
cmake -S "$src" -B "$out/build-loader" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$out" \
  -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_INSTALL_SYSCONFDIR=/etc -DVULKAN_HEADERS_INSTALL_DIR="$out/headers" \
  -DBUILD_WSI_XCB_SUPPORT=ON -DBUILD_WSI_XLIB_SUPPORT=ON -DBUILD_WSI_WAYLAND_SUPPORT=ON \
  -DBUILD_WSI_DIRECTFB_SUPPORT=OFF -DBUILD_TESTS=OFF -DUPDATE_DEPS=OFF -DLOADER_CODEGEN=ON >&2
# Debian's orig tarball leaves out loader/generated; its rules regenerate it from the registry first.
mkdir -p "$src/loader/generated"
cmake --build "$out/build-loader" --target loader_codegen >&2
cmake --build "$out/build-loader" --parallel "$jobs" >&2
cmake --install "$out/build-loader" >&2

[ -f "$library" ] || { echo "khronos-vulkan-loader: build finished without $library" >&2; exit 1; }
rm -rf "$src" "$out/build-headers" "$out/build-loader" "$download" "$out/apt"
echo "vulkan-loader $VERSION-$DEBIAN_REVISION wsi-xlib-xcb-wayland" >"$stamp"
echo "khronos-vulkan-loader: built $VERSION in $out" >&2
echo "$library"
