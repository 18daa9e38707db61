#!/usr/bin/env bash
# Compiles the examples' GLSL shaders to SPIR-V (committed next to their sources) with
# glslangValidator (Debian: glslang-tools): compute shaders (name.comp -> name.spv) and graphics
# stages (name.vert -> name.vert.spv, name.frag -> name.frag.spv). test/system/vulkan-compute.test.ts
# checks that the committed SPIR-V equals a fresh build.
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
for src in examples/shaders/*.vert examples/shaders/*.frag; do
  [ -e "$src" ] || continue
  glslangValidator --quiet -V --target-env vulkan1.0 -o "$out/$(basename "$src").spv" "$src"
done
