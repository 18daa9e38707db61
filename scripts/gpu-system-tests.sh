#!/usr/bin/env bash
# Prepares .gpu-tests/ (git-ignored): what a Linux x86-64 machine with a Vulkan driver but no
# compiler and no npm needs to run the Vulkan system suites (vitest) against that driver:
#   payload.tar.xz  the built addon (build/Release), the test/native build outputs (stripped),
#                   the Khronos Vulkan loader 1.4.309 built by scripts/build-khronos-vulkan-loader.sh,
#                   the OpenXR core_validation layer of Debian's openxr-layer-corevalidation (the XR
#                   scene test loads it; its manifest rewritten to the library beside it),
#                   lib/, test/, examples/, scripts/, package.json, vitest.config.ts, tsconfig.json, and the
#                   node_modules vitest, tsx, koffi and node-gyp-build need (dependency closure,
#                   linux-x64 native packages only);
#   run.sh          .gpu-tests/run.sh NODE DRIVER_MANIFEST [vitest arguments...]: unpacks the payload
#                   (into $KL_GPU_TESTS_DIR, default ${TMPDIR:-/tmp}/kl-gpu-tests) and runs the suites
#                   with KHRONOS_LOADER_PREBUILT=1 (no build), KHRONOS_LOADER_VK_DRIVER_JSON=DRIVER_MANIFEST
#                   and KHRONOS_LOADER_XR_LAYER_DIR at the packed core_validation layer.
# Node itself is not in it: the device machine brings its own Node (>= 20) and Debian's libvulkan1
# 1.3.239, which the differential suites compare with. Builds what is missing or stale first (npm run build, the
# test/native CMake build, the Khronos loader), so run it here, on the machine with the compilers.
#
#   scripts/gpu-system-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="$root/.gpu-tests"
jobs=${KHRONOS_LOADER_BUILD_JOBS:-2}

# The suites: every Vulkan system test file (those that need a Debian component the machine lacks
# skip with the reason), and the XR scene on the simulated runtime (built with the addon, in
# build/Release) through the driver: both paths, the one-pass (multiview) path where the driver
# keeps the two layers' depth apart (test/helpers/multiview-depth.ts measures it).
suites=(
  test/system/vulkan-differential.test.ts
  test/system/vulkan-physical-devices-differential.test.ts
  test/system/vulkan-compute.test.ts
  test/system/vulkan-command-encoder.test.ts
  test/system/vulkan-per-call-later.test.ts
  test/system/vulkan-loader-lavapipe.test.ts
  test/system/vulkan-info.test.ts
  test/vulkan-native/system-lavapipe.test.ts
  test/vulkan-native/khronos-differential.test.ts
  test/openxr-api/xr-scene.test.ts
)

# The OpenXR core_validation layer the XR scene test runs under (Debian's openxr-layer-corevalidation
# here; the device machine has no OpenXR packages). Its library needs only libstdc++ and libc.
core_validation_manifest=/usr/share/openxr/1/api_layers/explicit.d/XrApiLayer_core_validation.x86_64-linux-gnu.json
core_validation_library=/usr/lib/x86_64-linux-gnu/openxr/1/api_layers/libXrApiLayer_core_validation.so
for f in "$core_validation_manifest" "$core_validation_library"; do
  [ -f "$f" ] || { echo "gpu-system-tests: $f missing: install Debian's openxr-layer-corevalidation (the XR scene test needs the layer)" >&2; exit 1; }
done

echo "gpu-system-tests: building (addon, test/native, Khronos loader 1.4.309)" >&2
npm run -s build >&2
cmake -S test/native -B build/test-native -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/test-native --parallel "$jobs" >/dev/null
khronos_current=$(scripts/build-khronos-vulkan-loader.sh build/khronos-vulkan-loader-1.4.309)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stage="$tmp/khronos-loader-tests"
mkdir -p "$stage/build/Release" "$stage/build/khronos-vulkan-loader-1.4.309/lib"

# Sources the test files import (and the fixtures they start as child processes).
cp -a lib test examples scripts package.json vitest.config.ts tsconfig.json "$stage/"
rm -rf "$stage/test/native"

# Build outputs: the addon and its libraries; test/native's libraries, programs and manifests
# (without CMake's intermediate files, debug sections stripped); the Khronos loader 1.4.309.
cp -a build/Release/. "$stage/build/Release/"
(cd build/test-native && find . -path '*/CMakeFiles' -prune -o -type f \( -name '*.so' -o -name '*.json' -o -perm -u+x \) -print) |
  while read -r f; do
    case "$f" in *.cmake | */Makefile) continue ;; esac
    install -D -m "$(stat -c %a "build/test-native/$f")" "build/test-native/$f" "$stage/build/test-native/$f"
    case "$f" in *.json) ;; *) strip --strip-debug "$stage/build/test-native/$f" ;; esac
  done
cp -a "$(dirname "$khronos_current")"/libvulkan.so* "$stage/build/khronos-vulkan-loader-1.4.309/lib/"
# The core_validation layer: its library and its manifest, library_path made relative (the OpenXR
# loader resolves it against the manifest's folder: the OpenXR spec, 'API Layer Manifest File Format').
mkdir -p "$stage/build/openxr-layers"
install -m 644 "$core_validation_library" "$stage/build/openxr-layers/"
node - "$core_validation_manifest" "$stage/build/openxr-layers/$(basename "$core_validation_manifest")" "./$(basename "$core_validation_library")" <<'MANIFEST'
const fs = require('node:fs');
const [from, to, library] = process.argv.slice(2);
const manifest = JSON.parse(fs.readFileSync(from, 'utf8'));
manifest.api_layer.library_path = library;
fs.writeFileSync(to, `${JSON.stringify(manifest, null, 4)}\n`);
MANIFEST

# node_modules: the dependency closure (dependencies and optional dependencies present here,
# resolved as Node resolves them) of what the test files import.
node - "$stage" vitest tsx koffi node-gyp-build <<'CLOSURE'
const fs = require('node:fs');
const path = require('node:path');
const [stage, ...roots] = process.argv.slice(2);
const seen = new Set();
function resolveFrom(name, dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(d) === d) return null;
  }
}
function visit(dir) {
  if (seen.has(dir)) return;
  seen.add(dir);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
    const found = resolveFrom(name, dir);
    if (found) visit(found);
  }
}
for (const name of roots) visit(path.resolve('node_modules', name));
for (const dir of seen) {
  const rel = path.relative(process.cwd(), dir);
  fs.cpSync(dir, path.join(stage, rel), { recursive: true, verbatimSymlinks: true, filter: (src) => !src.slice(dir.length).includes('/node_modules/') });
}
// koffi ships a build for every platform; only linux_x64 is needed.
const koffiBuilds = path.join(stage, 'node_modules/koffi/build/koffi');
if (fs.existsSync(koffiBuilds)) {
  for (const entry of fs.readdirSync(koffiBuilds)) if (entry !== 'linux_x64') fs.rmSync(path.join(koffiBuilds, entry), { recursive: true, force: true });
}
process.stderr.write(`gpu-system-tests: ${seen.size} packages from node_modules\n`);
CLOSURE

rm -rf "$out"
mkdir -p "$out"
tar -C "$tmp" -cf - khronos-loader-tests | xz -T0 -6 >"$out/payload.tar.xz"
printf '%s\n' "${suites[@]}" >"$out/suites.txt"

cat >"$out/run.sh" <<'RUN'
#!/bin/sh
# .gpu-tests/run.sh NODE DRIVER_MANIFEST [vitest arguments...]
# Runs the Vulkan system suites (suites.txt, or the files in $KL_GPU_TESTS_FILES) with NODE against
# the Vulkan driver of DRIVER_MANIFEST, from the payload unpacked into $KL_GPU_TESTS_DIR (default
# ${TMPDIR:-/tmp}/kl-gpu-tests). Needs no compiler and no npm. Extra arguments go to vitest (e.g.
# --reporter=json --outputFile.json=FILE). The loader variables of the caller's environment
# (VK_DRIVER_FILES and the like) are cleared: each test sets what it needs.
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 NODE DRIVER_MANIFEST [vitest arguments...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
node=$1
driver=$2
shift 2
[ -x "$node" ] || { echo "run.sh: $node is not an executable Node.js" >&2; exit 2; }
[ -f "$driver" ] || { echo "run.sh: no driver manifest at $driver" >&2; exit 2; }
work=${KL_GPU_TESTS_DIR:-${TMPDIR:-/tmp}/kl-gpu-tests}
rm -rf "$work"
mkdir -p "$work"
xz -dc "$here/payload.tar.xz" | tar -xf - -C "$work"
cd "$work/khronos-loader-tests"
PATH="$(cd "$(dirname "$node")" && pwd):$PATH"
export PATH
for v in VK_DRIVER_FILES VK_ICD_FILENAMES VK_ADD_DRIVER_FILES VK_INSTANCE_LAYERS VK_LAYER_PATH VK_ADD_LAYER_PATH \
  VK_IMPLICIT_LAYER_PATH VK_ADD_IMPLICIT_LAYER_PATH VK_LOADER_LAYERS_ENABLE VK_LOADER_LAYERS_DISABLE VK_LOADER_LAYERS_ALLOW \
  VK_LOADER_DRIVERS_SELECT VK_LOADER_DRIVERS_DISABLE VK_LOADER_DEBUG VK_LOADER_DEVICE_SELECT VK_LOADER_DISABLE_SELECT; do
  unset "$v"
done
export KHRONOS_LOADER_PREBUILT=1
export KHRONOS_LOADER_VK_DRIVER_JSON="$driver"
export KHRONOS_LOADER_VK_KHRONOS_CURRENT="$PWD/build/khronos-vulkan-loader-1.4.309/lib/libvulkan.so.1"
export KHRONOS_LOADER_XR_LAYER_DIR="$PWD/build/openxr-layers"
echo "run.sh: node $("$node" -v), driver $driver, in $PWD" >&2
files=${KL_GPU_TESTS_FILES:-$(cat "$here/suites.txt")}
# shellcheck disable=SC2086 # file names without spaces, one or more
exec "$node" node_modules/vitest/vitest.mjs run $files "$@"
RUN
chmod +x "$out/run.sh"
du -sh "$out" >&2
echo "$out"
