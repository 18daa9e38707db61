// LoaderInstance's physical devices and groups: the trampoline side and the terminators.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <set>
#include <unordered_set>
#include <utility>

#include "common/two_call.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"

namespace kl::vulkan {

// ---- physical devices ----

// The trampoline object for a handle from the top of the chain: one per handle, kept for the
// instance's life (handles stay stable). Called with mutex_ held.
VkPhysicalDevice LoaderInstance::TrampolinePhysicalDevice(VkPhysicalDevice chainHandle) {
  auto it = std::find_if(trampolinePhysicalDevices_.begin(), trampolinePhysicalDevices_.end(),
                         [&](const auto& o) { return o->next == chainHandle; });
  if (it == trampolinePhysicalDevices_.end()) {
    auto o = std::make_unique<PhysicalDeviceObject>(HandleMagic::TrampolinePhysicalDevice);
    o->dispatch = &table_;
    o->next = chainHandle;
    o->unknown = trampolineUnknownPhysical_.data();
    o->owner = this;
    o->driver = nullptr;
    trampolinePhysicalDevices_.push_back(std::move(o));
    it = trampolinePhysicalDevices_.end() - 1;
  }
  return reinterpret_cast<VkPhysicalDevice>(it->get());
}

// As the Khronos loader's trampoline: the caller's count and capacity go down the chain as they
// are (the settings file's device_configurations make the size query's count an upper bound and
// let the fill fail, VK-DC-2), and what comes back is wrapped.
VkResult LoaderInstance::EnumeratePhysicalDevices(uint32_t* count, VkPhysicalDevice* devices) {
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (devices == nullptr) return table_.EnumeratePhysicalDevices(handle(), count, nullptr);
  const uint32_t capacity = *count;
  std::vector<VkPhysicalDevice> chain(std::max<uint32_t>(capacity, 1));  // never a null array (that is the size query)
  uint32_t written = capacity;
  const VkResult res = table_.EnumeratePhysicalDevices(handle(), &written, chain.data());
  if (res != VK_SUCCESS && res != VK_INCOMPLETE) return res;
  written = std::min(written, capacity);  // never more than the capacity, whatever came back
  std::lock_guard lock(mutex_);
  for (uint32_t i = 0; i < written; ++i) devices[i] = TrampolinePhysicalDevice(chain[i]);
  *count = written;
  return res;
}

VkResult LoaderInstance::EnumeratePhysicalDeviceGroups(uint32_t* count, VkPhysicalDeviceGroupProperties* groups) {
  if (table_.EnumeratePhysicalDeviceGroups == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  const VkResult res = table_.EnumeratePhysicalDeviceGroups(handle(), count, groups);
  if (res < 0 || groups == nullptr) return res;
  // Groups are not filtered by device_configurations (VK-DC-4): a member vkEnumeratePhysicalDevices
  // does not report still gets its trampoline object.
  std::lock_guard lock(mutex_);
  for (uint32_t g = 0; g < *count; ++g) {
    const uint32_t members = std::min<uint32_t>(groups[g].physicalDeviceCount, VK_MAX_DEVICE_GROUP_SIZE);
    for (uint32_t i = 0; i < members; ++i) {
      if (groups[g].physicalDevices[i] != VK_NULL_HANDLE) groups[g].physicalDevices[i] = TrampolinePhysicalDevice(groups[g].physicalDevices[i]);
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
  if (plan_.deviceFilters.configurationsActive) return ApplyDeviceConfigurations(count, devices);
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

namespace {

// loader_log_generate_uuid_string's form: 8-4-4-4-12 lower-case hex digits.
std::string UuidText(const uint8_t* uuid) {
  char text[37];
  std::snprintf(text, sizeof(text), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0], uuid[1], uuid[2], uuid[3], uuid[4],
                uuid[5], uuid[6], uuid[7], uuid[8], uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
  return text;
}

bool HasDriverPropertiesExtension(const DriverInstance& di, VkPhysicalDevice pd) {
  if (di.table.EnumerateDeviceExtensionProperties == nullptr) return false;
  std::vector<VkExtensionProperties> list;
  if (EnumerateTwoCall(list, VkExtensionProperties{}, VK_INCOMPLETE,
                       [&](uint32_t, uint32_t* n, VkExtensionProperties* out) { return di.table.EnumerateDeviceExtensionProperties(pd, nullptr, n, out); }) !=
      VK_SUCCESS) {
    return false;
  }
  return std::any_of(list.begin(), list.end(), [](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME) == 0; });
}

}  // namespace

// VK-DC-2: the settings file's device_configurations, as 1.4.359 applies them
// (loader_apply_settings_device_configurations): the size query answers min(entries, devices);
// the fill takes, for each entry in order, the first Vulkan 1.1 device whose deviceUUID, driverUUID
// and driverVersion match (VkPhysicalDeviceIDProperties), VK_INCOMPLETE when one more matches than
// the capacity holds, VK_ERROR_INITIALIZATION_FAILED when none matches. Called with mutex_ held.
VkResult LoaderInstance::ApplyDeviceConfigurations(uint32_t* count, VkPhysicalDevice* devices) {
  const auto& configurations = plan_.deviceFilters.configurations;
  const auto& all = terminatorPhysicalDevices_;
  if (devices == nullptr) {
    *count = static_cast<uint32_t>(std::min(configurations.size(), all.size()));
    return VK_SUCCESS;
  }
  Report(LogLevel::Info, "Reordering the output of vkEnumeratePhysicalDevices to match the loader settings device configurations list");
  struct Details {
    bool added = false, vulkan11 = false, driverProperties = false;
    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceIDProperties ids{};
    VkPhysicalDeviceDriverProperties driver{};
  };
  std::vector<Details> details(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const PhysicalDeviceObject& o = *all[i];
    Details& d = details[i];
    o.driver->table.GetPhysicalDeviceProperties(o.next, &d.properties);
    if (d.properties.apiVersion < VK_API_VERSION_1_1) continue;  // no IDs to compare
    d.vulkan11 = true;
    d.driverProperties = d.properties.apiVersion >= VK_API_VERSION_1_2 || HasDriverPropertiesExtension(*o.driver, o.next);
    d.ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    d.driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    if (d.driverProperties) d.ids.pNext = &d.driver;
    VkPhysicalDeviceProperties2 props2{};
    props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    props2.pNext = &d.ids;
    if (o.driver->table.GetPhysicalDeviceProperties2 != nullptr) o.driver->table.GetPhysicalDeviceProperties2(o.next, &props2);
  }
  uint32_t written = 0;
  for (const auto& c : configurations) {
    bool found = false;
    for (std::size_t j = 0; j < all.size(); ++j) {
      Details& d = details[j];
      if (!d.vulkan11) continue;
      if (std::memcmp(c.deviceUUID.data(), d.ids.deviceUUID, VK_UUID_SIZE) != 0 || std::memcmp(c.driverUUID.data(), d.ids.driverUUID, VK_UUID_SIZE) != 0 ||
          c.driverVersion != d.properties.driverVersion) {
        continue;
      }
      found = true;
      if (written >= *count) {
        *count = written;
        return VK_INCOMPLETE;
      }
      const std::string version = std::to_string(static_cast<int32_t>(d.properties.driverVersion));
      Report(LogLevel::Debug, d.driverProperties ? "pPhysicalDevices array index " + std::to_string(written) + " is set to \"" + d.properties.deviceName + "\" (" +
                                                     d.driver.driverName + ", version " + version + ") "
                                                 : "pPhysicalDevices array index " + std::to_string(written) + " is set to \"" + d.properties.deviceName +
                                                     "\" (driver version " + version + ") ");
      devices[written++] = reinterpret_cast<VkPhysicalDevice>(all[j].get());
      d.added = true;
      break;
    }
    if (found) continue;
    const std::string ids = "deviceUUID: " + UuidText(c.deviceUUID.data());
    const std::string driverIds = "driverUUID: " + UuidText(c.driverUUID.data()) + ", driverVersion: " + std::to_string(static_cast<int32_t>(c.driverVersion));
    const std::string missing = "loader_apply_settings_device_configurations: settings file contained device_configuration which does not appear in the enumerated "
                                "VkPhysicalDevices. Missing VkPhysicalDevice with ";
    if (!c.deviceName.empty() && !c.driverName.empty()) {
      Report(LogLevel::Warn, missing + "deviceName: \"" + c.deviceName + "\", " + ids + ", driverName: " + c.driverName + ", " + driverIds);
    } else if (!c.deviceName.empty()) {
      Report(LogLevel::Warn, missing + "deviceName: \"" + c.deviceName + "\", " + ids + ", " + driverIds);
    } else {
      Report(LogLevel::Warn, missing + ids + ", " + driverIds);
    }
  }
  for (std::size_t j = 0; j < all.size(); ++j) {
    if (details[j].added) continue;
    Report(LogLevel::Info, std::string("VkPhysicalDevice \"") + details[j].properties.deviceName +
                               "\" did not appear in the settings file device configurations list, so was not added to the pPhysicalDevices array");
  }
  if (written == 0) {
    Report(LogLevel::Warn,
           "loader_apply_settings_device_configurations: None of the settings file device configurations had deviceUUID's that corresponded to enumerated "
           "VkPhysicalDevices. Returning VK_ERROR_INITIALIZATION_FAILED");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  *count = written;
  return VK_SUCCESS;
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
