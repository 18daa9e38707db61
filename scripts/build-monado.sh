#!/usr/bin/env bash
# Builds Monado, the open-source OpenXR runtime (Boost Software License 1.0), at the commit the
# tests are pinned to, as an in-process runtime with the simulated HMD and the null compositor:
# a real OpenXR runtime that needs no display and no GPU (Vulkan through Mesa's lavapipe).
#
#   scripts/build-monado.sh [--source-tarball FILE] [OUT]
#
# OUT defaults to build/monado (where the tests look; or point KHRONOS_LOADER_MONADO_JSON at
# OUT/openxr_monado-dev.json). The manifest path is printed last. A build whose OUT already holds
# the manifest of the pinned commit is reused. Without --source-tarball the source comes from the
# official repository (https://gitlab.freedesktop.org/monado/monado) and needs the network; CI
# passes the tarball of the same commit instead. Installs Monado's Debian build packages where
# missing (apt-get: run as root, or install them first). About a minute to several on 2 cores.
#
# Run programs on it with:
#   XR_RUNTIME_JSON=OUT/openxr_monado-dev.json XRT_COMPOSITOR_NULL=1 SIMULATED_ENABLE=1
#   VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json   (and DISPLAY unset)
set -euo pipefail

MONADO_COMMIT=598080453545c6bf313829e5780ffb7dde9b79dc # main, 2024-05-31, "c/util: Comments"
MONADO_REPOSITORY=https://gitlab.freedesktop.org/monado/monado

tarball=""
if [ "${1:-}" = "--source-tarball" ]; then
  if [ -z "${2:-}" ]; then
    echo "usage: scripts/build-monado.sh [--source-tarball FILE] [OUT]" >&2
    exit 2
  fi
  tarball=$(cd "$(dirname "$2")" 2>/dev/null && pwd)/$(basename "$2")
  shift 2
fi
out=$(mkdir -p "${1:-build/monado}" && cd "${1:-build/monado}" && pwd)
manifest="$out/openxr_monado-dev.json"
stamp="$out/.built-from"

if [ -f "$manifest" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$MONADO_COMMIT" ] &&
  [ -f "$(sed -n 's/.*"library_path":"\([^"]*\)".*/\1/p' "$manifest")" ]; then
  echo "monado: $MONADO_COMMIT already built in $out" >&2
  echo "$manifest"
  exit 0
fi

# A tarball must be the pinned commit (git archive records it).
if [ -n "$tarball" ]; then
  if [ ! -f "$tarball" ]; then
    echo "monado: --source-tarball $tarball: no such file" >&2
    exit 1
  fi
  if command -v git >/dev/null && command -v xz >/dev/null; then
    found=$(xz -dc "$tarball" | git get-tar-commit-id || true)
    if [ "$found" != "$MONADO_COMMIT" ]; then
      echo "monado: $tarball is commit '${found:-unknown}', not the pinned $MONADO_COMMIT" >&2
      exit 1
    fi
  fi
fi

packages="build-essential cmake ninja-build pkg-config python3 glslang-tools libeigen3-dev libvulkan-dev
  libx11-dev libx11-xcb-dev libxcb-randr0-dev libxrandr-dev libxxf86vm-dev libusb-1.0-0-dev libudev-dev
  libhidapi-dev libwayland-dev wayland-protocols libbsd-dev libcjson-dev mesa-vulkan-drivers xz-utils"
[ -n "$tarball" ] || packages="$packages curl ca-certificates"
missing=$(for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  echo "monado: installing" $missing >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
fi

src="$out/src"
rm -rf "$src" "$stamp"
mkdir -p "$src"
if [ -n "$tarball" ]; then
  tar -xJf "$tarball" -C "$src" --strip-components=1
else
  echo "monado: downloading $MONADO_COMMIT from $MONADO_REPOSITORY" >&2
  curl -fsSL "$MONADO_REPOSITORY/-/archive/$MONADO_COMMIT/monado-$MONADO_COMMIT.tar.gz" | tar -xz -C "$src" --strip-components=1
fi

# Everything but the simulated HMD, the null compositor and the in-process OpenXR target is off:
# a small build with no hardware drivers, no service, no GUI.
off=""
for d in ANDROID ARDUINO DAYDREAM DEPTHAI EUROC HANDTRACKING TWRAP HDK HYDRA ILLIXR NS OHMD OPENGLOVES \
  PSMV PSSENSE PSVR QWERTY REALSENSE REMOTE RIFT_S ROKID STEAMVR_LIGHTHOUSE SURVIVE ULV2 ULV5 VF \
  VIVE WMR XREAL_AIR SIMULAVR; do off="$off -DXRT_BUILD_DRIVER_$d=OFF"; done
# XRT_MODULE_COMPOSITOR_MAIN stays on: the in-process target links it; XRT_COMPOSITOR_NULL=1
# picks the null compositor at run time.
cmake -S "$src" -B "$out/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF -DBUILD_DOC=OFF \
  -DXRT_BUILD_SAMPLES=OFF -DXRT_FEATURE_SERVICE=OFF -DXRT_MODULE_IPC=OFF -DXRT_FEATURE_STEAMVR_PLUGIN=OFF \
  -DXRT_MODULE_MONADO_GUI=OFF -DXRT_MODULE_MONADO_CLI=OFF -DXRT_MODULE_AUX_VIVE=OFF \
  -DXRT_MODULE_COMPOSITOR_MAIN=ON -DXRT_MODULE_COMPOSITOR_NULL=ON -DXRT_HAVE_OPENCV=OFF -DXRT_HAVE_SDL2=OFF \
  -DXRT_HAVE_GST=OFF -DXRT_HAVE_SYSTEM_CJSON=ON -DXRT_BUILD_DRIVER_SIMULATED=ON $off >&2
ninja -C "$out/build" -j"${JOBS:-2}" >&2

library=$(find "$out/build" -name libopenxr_monado.so | head -1)
if [ -z "$library" ]; then
  echo "monado: the build produced no libopenxr_monado.so" >&2
  exit 1
fi
printf '{"file_format_version":"1.0.0","runtime":{"name":"Monado","library_path":"%s"}}\n' "$library" >"$manifest"
echo "$MONADO_COMMIT" >"$stamp"
echo "$manifest"
