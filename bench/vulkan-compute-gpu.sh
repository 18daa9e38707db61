# examples/compute.ts on the device machine's NVIDIA driver, through the packaged prebuilt binary
# (bench/VULKAN-COMPUTE.md). Here, from the project root:
#   ../shared/gpu/pack.sh \
#   && npx esbuild examples/compute.ts --bundle --format=esm --platform=node --external:khronos-loader \
#        --outfile=.gpu/app/examples/compute.mjs \
#   && mkdir -p .gpu/app/examples/shaders && cp examples/shaders/saxpy.spv .gpu/app/examples/shaders/
# There (a device run carrying .gpu):   sh bench/vulkan-compute-gpu.sh
# setup.sh installs the npm tarball into /tmp/gpu-app and points VK_DRIVER_FILES at the NVIDIA
# manifest, so the example goes createLoader -> discovery -> plan -> native chain -> driver.
set -e
. .gpu/setup.sh
root=$(pwd)
cd /tmp/gpu-app   # where setup.sh installed the package on the device machine
cp -r "$root/.gpu/app/examples" .
nvidia-smi -L || true
date -u
node node_modules/khronos-loader/dist/tools/cli/main.js info vulkan
for i in 1 2 3; do node examples/compute.mjs; done
