// LoaderInstance's physical devices and groups: the trampoline side and the terminators.
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

// ---- physical devices ----

VkResult LoaderInstance::EnumeratePhysicalDevices(uint32_t* count, VkPhysicalDevice* devices) {
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::vector<VkPhysicalDevice> chain;
  const VkResult res = EnumerateTwoCall(chain, VkPhysicalDevice{}, VK_INCOMPLETE, [&](uint32_t, uint32_t* n, VkPhysicalDevice* out) {
    return table_.EnumeratePhysicalDevices(handle(), n, out);
  });
  if (res != VK_SUCCESS) return res;
  std::lock_guard lock(mutex_);
  // One trampoline object per chain handle, kept for the instance's life (handles stay stable).
  std::vector<VkPhysicalDevice> wrapped;
  for (VkPhysicalDevice pd : chain) {
    auto it = std::find_if(trampolinePhysicalDevices_.begin(), trampolinePhysicalDevices_.end(),
                           [&](const auto& o) { return o->next == pd; });
    if (it == trampolinePhysicalDevices_.end()) {
      auto o = std::make_unique<PhysicalDeviceObject>(HandleMagic::TrampolinePhysicalDevice);
      o->dispatch = &table_;
      o->next = pd;
      o->unknown = trampolineUnknownPhysical_.data();
      o->owner = this;
      o->driver = nullptr;
      trampolinePhysicalDevices_.push_back(std::move(o));
      it = trampolinePhysicalDevices_.end() - 1;
    }
    wrapped.push_back(reinterpret_cast<VkPhysicalDevice>(it->get()));
  }
  if (devices == nullptr) {
    *count = static_cast<uint32_t>(wrapped.size());
    return VK_SUCCESS;
  }
  const uint32_t copy = std::min<uint32_t>(*count, static_cast<uint32_t>(wrapped.size()));
  std::copy_n(wrapped.begin(), copy, devices);
  *count = copy;
  return copy < wrapped.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VkResult LoaderInstance::EnumeratePhysicalDeviceGroups(uint32_t* count, VkPhysicalDeviceGroupProperties* groups) {
  if (table_.EnumeratePhysicalDeviceGroups == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  // Make sure the trampoline objects exist, then translate the chain's handles.
  uint32_t n = 0;
  VkResult res = EnumeratePhysicalDevices(&n, nullptr);
  if (res != VK_SUCCESS) return res;
  std::vector<VkPhysicalDevice> all(n);
  EnumeratePhysicalDevices(&n, all.data());
  res = table_.EnumeratePhysicalDeviceGroups(handle(), count, groups);
  if (res < 0 || groups == nullptr) return res;
  std::lock_guard lock(mutex_);
  for (uint32_t g = 0; g < *count; ++g) {
    for (uint32_t i = 0; i < groups[g].physicalDeviceCount; ++i) {
      for (const auto& o : trampolinePhysicalDevices_) {
        if (o->next == groups[g].physicalDevices[i]) groups[g].physicalDevices[i] = reinterpret_cast<VkPhysicalDevice>(o.get());
      }
    }
  }
  return res;
}

void LoaderInstance::CollectTerminatorPhysicalDevices() {
  if (terminatorPhysicalDevicesCollected_) return;
  terminatorPhysicalDevicesCollected_ = true;
  std::vector<std::unique_ptr<PhysicalDeviceObject>> all;
  // The Khronos loader keeps its drivers in a list it prepends to, so their devices come last
  // driver first; the sort below is stable, so that order decides its ties.
  for (auto it = driverInstances_.rbegin(); it != driverInstances_.rend(); ++it) {
    auto& di = *it;
    if (di->table.EnumeratePhysicalDevices == nullptr) continue;
    std::vector<VkPhysicalDevice> handles;
    const VkResult listed = DriverPhysicalDevices(*di, handles);
    if (listed != VK_SUCCESS) {
      Report(LogLevel::Warn, DescribeDriver(di->driver->description) + ": vkEnumeratePhysicalDevices returned " + std::to_string(listed) +
                                 "; its devices are left out");
      continue;
    }
    for (std::size_t i = 0; i < handles.size(); ++i) {
      auto o = std::make_unique<PhysicalDeviceObject>(HandleMagic::TerminatorPhysicalDevice);
      o->dispatch = &table_;
      o->next = handles[i];
      o->unknown = di->unknownPhysical.data();
      o->owner = this;
      o->driver = di.get();
      std::memset(&o->properties, 0, sizeof(o->properties));
      di->table.GetPhysicalDeviceProperties(handles[i], &o->properties);
      o->driverId = 0;
      if (o->properties.apiVersion >= VK_API_VERSION_1_2 && di->table.GetPhysicalDeviceProperties2 != nullptr) {
        VkPhysicalDeviceDriverProperties driverProps{};
        driverProps.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
        VkPhysicalDeviceProperties2 props2{};
        props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        props2.pNext = &driverProps;
        di->table.GetPhysicalDeviceProperties2(handles[i], &props2);
        o->driverId = static_cast<uint32_t>(driverProps.driverID);
      }
      if (LinuxSortEnabled()) ReadPciBusInfo(*di, terminatorApiVersion_, *o);
      else o->hasPciBusInfo = false;
      all.push_back(std::move(o));
    }
  }
  // The device filters of the current Khronos loader.
  const DeviceFilters& f = plan_.deviceFilters;
  std::vector<std::unique_ptr<PhysicalDeviceObject>> kept;
  for (auto& o : all) {
    const auto& p = o->properties;
    std::string why;
    if (!InRanges(f.deviceIdRanges, p.deviceID)) why = "VK_LOADER_DEVICE_ID_FILTER";
    else if (!InRanges(f.vendorIdRanges, p.vendorID)) why = "VK_LOADER_VENDOR_ID_FILTER";
    else if (!InRanges(f.driverIdRanges, o->driverId)) why = "VK_LOADER_DRIVER_ID_FILTER";
    if (!why.empty()) {
      Report(LogLevel::Info, std::string("physical device ") + p.deviceName + " left out by " + why);
      continue;
    }
    kept.push_back(std::move(o));
  }
  // The Khronos loader's Linux sort (linux_read_sorted_physical_devices): the VK_LOADER_DEVICE_SELECT
  // device first, then CompareLinux; stable (glibc's qsort is a merge sort), so ties keep the
  // drivers' order. Off without vkGetPhysicalDeviceProperties2 or with VK_LOADER_DISABLE_SELECT.
  if (LinuxSortEnabled()) {
    std::stable_sort(kept.begin(), kept.end(), [&](const auto& a, const auto& b) {
      if (IsDefaultDevice(*a) != IsDefaultDevice(*b)) return IsDefaultDevice(*a);
      return CompareLinux(*a, *b) < 0;
    });
  }
  terminatorPhysicalDevices_ = std::move(kept);
}

bool LoaderInstance::IsDefaultDevice(const PhysicalDeviceObject& o) const noexcept {
  const DeviceFilters& f = plan_.deviceFilters;
  return f.hasDeviceSelect && o.properties.vendorID == f.selectVendorId && o.properties.deviceID == f.selectDeviceId;
}

VkResult LoaderInstance::TerminatorEnumeratePhysicalDevices(uint32_t* count, VkPhysicalDevice* devices) {
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::lock_guard lock(mutex_);
  CollectTerminatorPhysicalDevices();
  const uint32_t total = static_cast<uint32_t>(terminatorPhysicalDevices_.size());
  if (devices == nullptr) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t copy = std::min(*count, total);
  for (uint32_t i = 0; i < copy; ++i) devices[i] = reinterpret_cast<VkPhysicalDevice>(terminatorPhysicalDevices_[i].get());
  *count = copy;
  return copy < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VkResult LoaderInstance::TerminatorEnumeratePhysicalDeviceGroups(uint32_t* count, VkPhysicalDeviceGroupProperties* groups) {
  // As the Khronos loader: each driver's own groups (vkEnumeratePhysicalDeviceGroups, or the KHR
  // command when VK_KHR_device_group_creation is enabled), each device of a driver without it a
  // group of one; on Linux the devices in each group, then the groups by their first device, sorted
  // as the physical devices are. Devices a filter left out leave their groups.
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::lock_guard lock(mutex_);
  CollectTerminatorPhysicalDevices();
  auto ours = [&](VkPhysicalDevice driverHandle) -> PhysicalDeviceObject* {
    for (const auto& o : terminatorPhysicalDevices_) {
      if (o->next == driverHandle) return o.get();
    }
    return nullptr;
  };
  std::vector<std::vector<PhysicalDeviceObject*>> all;
  std::vector<VkBool32> subset;
  for (auto it = driverInstances_.rbegin(); it != driverInstances_.rend(); ++it) {  // last driver first, as the devices
    auto& di = *it;
    const PFN_vkEnumeratePhysicalDeviceGroups enumerate =
        deviceGroupCreationEnabled_ ? reinterpret_cast<PFN_vkEnumeratePhysicalDeviceGroups>(di->table.EnumeratePhysicalDeviceGroupsKHR)
                                    : di->table.EnumeratePhysicalDeviceGroups;
    std::vector<std::pair<std::vector<VkPhysicalDevice>, VkBool32>> driverGroups;
    if (enumerate == nullptr) {
      std::vector<VkPhysicalDevice> handles;
      if (DriverPhysicalDevices(*di, handles) != VK_SUCCESS) continue;
      for (VkPhysicalDevice h : handles) driverGroups.push_back({{h}, VK_FALSE});
    } else {
      uint32_t n = 0;
      if (enumerate(di->handle, &n, nullptr) != VK_SUCCESS) {
        Report(LogLevel::Warn, DescribeDriver(di->driver->description) + ": vkEnumeratePhysicalDeviceGroups failed; its groups are left out");
        continue;
      }
      std::vector<VkPhysicalDeviceGroupProperties> props(n);
      for (auto& p : props) p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES;
      if (enumerate(di->handle, &n, props.data()) < 0) continue;
      for (uint32_t g = 0; g < std::min<std::size_t>(n, props.size()); ++g) {
        const uint32_t size = std::min<uint32_t>(props[g].physicalDeviceCount, VK_MAX_DEVICE_GROUP_SIZE);
        driverGroups.push_back({std::vector<VkPhysicalDevice>(props[g].physicalDevices, props[g].physicalDevices + size), props[g].subsetAllocation});
      }
    }
    for (const auto& [handles, subsetAllocation] : driverGroups) {
      std::vector<PhysicalDeviceObject*> members;
      for (VkPhysicalDevice h : handles) {
        if (PhysicalDeviceObject* o = ours(h)) members.push_back(o);
      }
      if (members.empty()) continue;
      all.push_back(std::move(members));
      subset.push_back(subsetAllocation);
    }
  }
  std::vector<std::size_t> order(all.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (LinuxSortEnabled()) {
    auto before = [&](const PhysicalDeviceObject* a, const PhysicalDeviceObject* b) {
      if (IsDefaultDevice(*a) != IsDefaultDevice(*b)) return IsDefaultDevice(*a);
      return CompareLinux(*a, *b) < 0;
    };
    for (auto& members : all) std::stable_sort(members.begin(), members.end(), before);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return before(all[a].front(), all[b].front()); });
  }
  const uint32_t total = static_cast<uint32_t>(all.size());
  if (groups == nullptr) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t copy = std::min(*count, total);
  for (uint32_t i = 0; i < copy; ++i) {
    const auto& members = all[order[i]];
    groups[i].physicalDeviceCount = static_cast<uint32_t>(members.size());
    std::fill(std::begin(groups[i].physicalDevices), std::end(groups[i].physicalDevices), nullptr);
    for (std::size_t m = 0; m < members.size(); ++m) groups[i].physicalDevices[m] = reinterpret_cast<VkPhysicalDevice>(members[m]);
    groups[i].subsetAllocation = subset[order[i]];
  }
  *count = copy;
  return copy < total ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace kl::vulkan
