// The queue checks: a device whose driver made a queue without the loader magic.
#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <unordered_set>
#include <utility>

#include "common/two_call.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"

namespace kl::vulkan {

// A device whose driver made a queue without the loader magic gets these in its table's two
// slots: the chain's function, then the queue refused (NULL, and logged) unless it carries the
// magic or already the table. The trampolines then store the table only into a queue let through.
namespace {
void RefuseWithoutMagic(LoaderDevice* ld, VkQueue* queue) noexcept {
  if (*queue != nullptr && !LoaderDevice::SetDispatch(*queue, &ld->dispatch.table, "VkQueue")) *queue = nullptr;
}
}  // namespace

void VKAPI_CALL CheckingGetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue* queue) {
  LoaderDevice* ld = LoaderDevice::FromObject(device);
  ld->uncheckedGetDeviceQueue(device, family, index, queue);
  RefuseWithoutMagic(ld, queue);
}
void VKAPI_CALL CheckingGetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* queue) {
  LoaderDevice* ld = LoaderDevice::FromObject(device);
  if (ld->uncheckedGetDeviceQueue2 == nullptr) {  // not in the chain (a 1.0 device): nothing to get
    *queue = nullptr;
    return;
  }
  ld->uncheckedGetDeviceQueue2(device, info, queue);
  RefuseWithoutMagic(ld, queue);
}

}  // namespace kl::vulkan
