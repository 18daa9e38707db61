# Device-machine side of bench/vulkan-gpu-check.mjs (see its header).
set -e
mkdir -p /opt/kl/bin && xz -dc build/gpu/node.xz > /opt/kl/bin/node && chmod +x /opt/kl/bin/node
export PATH=/opt/kl/bin:$PATH
nvidia-smi -L || true
M=""
for m in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do [ -f $m ] && M=$m && break; done
echo "ICD manifest: $M"; date -u
node bench/vulkan-gpu-check.mjs "$M" 2>&1 | tee $OUT/gpu-check.txt
