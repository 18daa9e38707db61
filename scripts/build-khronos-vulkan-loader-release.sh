#!/usr/bin/env bash
# Builds the current Khronos Vulkan loader from the Khronos release tags (Vulkan-Loader v1.4.359 and
# the C headers of Vulkan-Headers v1.4.359, Apache-2.0) with its window systems on (X11, XCB,
# Wayland: their surface extensions are then in its instance extension list), so the differential
# suites can compare with it as well as with 1.3.239 and 1.4.309 (docs/testing.md, docs/conformance.md).
#
#   scripts/build-khronos-vulkan-loader-release.sh [OUT]
#
# OUT defaults to build/khronos-vulkan-loader-1.4.359 (where the tests look, or point
# KHRONOS_LOADER_VK_KHRONOS_1_4_359 at OUT/lib/libvulkan.so.1). The library path is printed last.
# A build whose OUT already holds the library of this version is reused.
#
# The sources: Vulkan-Loader-1.4.359.tar.xz and Vulkan-Headers-1.4.359.tar.xz from the folder
# KHRONOS_LOADER_KHRONOS_SOURCES names when it holds them, else the tags' archives from the
# KhronosGroup repositories on GitHub. Either way the unpacked trees are checked against the
# content checksums pinned below (scripts/lib/khronos-sources.sh, tree_content_sha256: every file's
# path and SHA-256, carriage returns removed), not the archives' bytes, which differ between two
# packings of the same tag. The headers' C++ bindings (*.hpp, *.cppm) and registry/validusage.json
# are left out of that checksum: the loader's build does not use them and an archive may lack them.
# Exit status 3 (and one line naming what is missing) when neither source can be had.
# Needs cmake, a C compiler, python3, and for the window systems libx11-dev, libxcb1-dev,
# libxrandr-dev and libwayland-dev (about a minute on 2 cores).
set -euo pipefail

VERSION=1.4.359
LOADER_TREE_SHA256=efffd981cdd1326ec74e194dda8b6038c9020167afff59c2d3ce2fa1b7f8c356
HEADERS_TREE_SHA256=9d5c88c8289042cc7c395eb4dbbbd57b758f41ddde56c6b5010ddb92e41b3a28
HEADERS_UNUSED=('./*.hpp' './*.cppm' './registry/validusage.json')

# shellcheck source=lib/khronos-sources.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/khronos-sources.sh"

out=$(mkdir -p "${1:-build/khronos-vulkan-loader-$VERSION}" && cd "${1:-build/khronos-vulkan-loader-$VERSION}" && pwd)
library="$out/lib/libvulkan.so.1"
stamp="$out/.built-from"
built="Vulkan-Loader $VERSION $LOADER_TREE_SHA256 Vulkan-Headers $HEADERS_TREE_SHA256 wsi x11 xcb wayland"

# shellcheck source=lib/built-stamp.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/built-stamp.sh"
already_built khronos-vulkan-loader-release "$library" "$stamp" "$built" && exit 0

for tool in cmake cc python3; do
  command -v "$tool" >/dev/null || { echo "khronos-vulkan-loader-release: needs $tool" >&2; exit 1; }
done

src="$out/src"
rm -rf "$stamp" "$src" "$out/build-headers" "$out/build-loader" "$out/headers" "$out/lib"
mkdir -p "$src/loader" "$src/headers"

# unpack NAME DEST: the tag's tree into DEST, from the local folder or from GitHub. Fails (status 1)
# when neither has it.
unpack() {
  local name=$1 dest=$2
  local local_archive="${KHRONOS_LOADER_KHRONOS_SOURCES:-}/$name-$VERSION.tar.xz"
  if [ -n "${KHRONOS_LOADER_KHRONOS_SOURCES:-}" ] && [ -f "$local_archive" ]; then
    echo "khronos-vulkan-loader-release: $name from $local_archive" >&2
    tar -xJf "$local_archive" -C "$dest" --strip-components=1
    return 0
  fi
  local url="https://github.com/KhronosGroup/$name/archive/refs/tags/v$VERSION.tar.gz"
  echo "khronos-vulkan-loader-release: $name from $url" >&2
  command -v curl >/dev/null || return 1
  curl -fsSL --retry 2 --connect-timeout 20 "$url" | tar -xz -C "$dest" --strip-components=1
}

# check NAME DIR PINNED [EXCLUDED...]: the unpacked tree's content checksum is the pinned one.
check() {
  local name=$1 dir=$2 pinned=$3
  shift 3
  local got
  got=$(tree_content_sha256 "$dir" "$@")
  if [ "$got" != "$pinned" ]; then
    echo "khronos-vulkan-loader-release: $name $VERSION: tree content SHA-256 $got, pinned $pinned" >&2
    exit 1
  fi
}

if ! unpack Vulkan-Loader "$src/loader" || ! unpack Vulkan-Headers "$src/headers"; then
  echo "khronos-vulkan-loader-release: MISSING: Vulkan-Loader/Vulkan-Headers $VERSION sources (neither KHRONOS_LOADER_KHRONOS_SOURCES=${KHRONOS_LOADER_KHRONOS_SOURCES:-<unset>} holds them nor could GitHub be reached)" >&2
  rm -rf "$src"
  exit 3
fi
check Vulkan-Loader "$src/loader" "$LOADER_TREE_SHA256"
check Vulkan-Headers "$src/headers" "$HEADERS_TREE_SHA256" "${HEADERS_UNUSED[@]}"

jobs=${KHRONOS_LOADER_BUILD_JOBS:-2}
cmake -S "$src/headers" -B "$out/build-headers" -DCMAKE_INSTALL_PREFIX="$out/headers" \
  -DVULKAN_HEADERS_ENABLE_MODULE=OFF -DCMAKE_BUILD_TYPE=Release >&2
cmake --install "$out/build-headers" >&2

# As a distribution builds it (SYSCONFDIR=/etc; release), with the window systems on: their CMake
# options fail the configuration when a development package is missing, so a build without them
# cannot pass for a complete one.
cmake -S "$src/loader" -B "$out/build-loader" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$out" \
  -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_INSTALL_SYSCONFDIR=/etc -DVULKAN_HEADERS_INSTALL_DIR="$out/headers" \
  -DCMAKE_PREFIX_PATH="$out/headers" \
  -DBUILD_WSI_XCB_SUPPORT=ON -DBUILD_WSI_XLIB_SUPPORT=ON -DBUILD_WSI_WAYLAND_SUPPORT=ON \
  -DBUILD_WSI_XLIB_XRANDR_SUPPORT=ON -DBUILD_WSI_DIRECTFB_SUPPORT=OFF -DBUILD_TESTS=OFF -DUPDATE_DEPS=OFF >&2
cmake --build "$out/build-loader" --parallel "$jobs" --target vulkan >&2
cmake --install "$out/build-loader" >&2

[ -f "$library" ] || { echo "khronos-vulkan-loader-release: build finished without $library" >&2; exit 1; }
rm -rf "$src" "$out/build-headers" "$out/build-loader"
echo "$built" >"$stamp"
echo "khronos-vulkan-loader-release: built $VERSION in $out" >&2
echo "$library"
