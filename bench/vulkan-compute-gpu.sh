# examples/compute.ts on the device machine's NVIDIA driver (bench/VULKAN-COMPUTE.md).
# Here:  npm run build && npx esbuild examples/compute.ts --format=esm --platform=node --outfile=build/gpu/examples/compute.mjs \
#          && mkdir -p build/gpu/examples/shaders && cp examples/shaders/saxpy.spv build/gpu/examples/shaders/ \
#          && xz -T2 -c "$(readlink -f "$(command -v node)")" > build/gpu/node.xz
# There (device run carrying build/gpu, build/Release, dist, node_modules/node-gyp-build):
#   sh bench/vulkan-compute-gpu.sh    (prints and writes $OUT/compute.txt)
set -e
mkdir -p /opt/kl/bin && xz -dc build/gpu/node.xz > /opt/kl/bin/node && chmod +x /opt/kl/bin/node
export PATH=/opt/kl/bin:$PATH
nvidia-smi -L || true
M=""
for m in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do [ -f $m ] && M=$m && break; done
echo "ICD manifest: $M"; date -u
for i in 1 2 3; do VK_DRIVER_FILES=$M node build/gpu/examples/compute.mjs 2>&1 | tee -a "$OUT/compute.txt"; done
