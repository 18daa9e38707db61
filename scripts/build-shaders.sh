#!/usr/bin/env bash
# Compiles the examples' GLSL compute shaders to SPIR-V (committed next to their sources) with
# glslangValidator (Debian: glslang-tools). test/system/vulkan-compute.test.ts checks that the
# committed SPIR-V equals a fresh build.
#
#   scripts/build-shaders.sh [output folder]   (default: examples/shaders)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-examples/shaders}"
mkdir -p "$out"
for src in examples/shaders/*.comp; do
  name="$(basename "$src" .comp)"
  glslangValidator --quiet -V --target-env vulkan1.0 -o "$out/$name.spv" "$src"
done
