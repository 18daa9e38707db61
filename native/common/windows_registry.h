// Reading the Windows registry: one key's values and subkey names, through the 64-bit view (a key
// path that names WOW6432Node reads the 32-bit view explicitly, as discovery decides). Only the
// reading is here; what the values mean is discovery's business (lib/*/discovery, pure TypeScript
// over the Platform's RegistryView).
#pragma once

#ifdef _WIN32

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kl::windows {

enum class RegistryHive { LocalMachine, CurrentUser };

struct RegistryValueData {
  std::string name;            // UTF-8; empty for the key's default value
  std::uint32_t type;          // REG_SZ, REG_DWORD, ...
  std::vector<std::uint8_t> bytes;  // as stored
};

struct RegistryKeyContents {
  std::vector<RegistryValueData> values;  // in the registry's enumeration order
  std::vector<std::string> subkeys;       // UTF-8
};

// A key that exists but cannot be read (access denied, ...): names the key and the system's reason.
class RegistryError : public std::runtime_error {
 public:
  RegistryError(const std::string& key, const std::string& reason);
};

// nullopt when the key does not exist; throws RegistryError for any other failure (and for a key
// path that is not valid UTF-8).
std::optional<RegistryKeyContents> ReadRegistryKey(RegistryHive hive, const std::string& key);

// The registry type's name ("REG_DWORD"); "REG_0x<hex>" for a type Windows does not define.
std::string RegistryTypeName(std::uint32_t type);

// UTF-16 string data (REG_SZ / REG_EXPAND_SZ) as UTF-8, without the terminating NULs.
std::string RegistryString(const std::vector<std::uint8_t>& bytes);
// REG_MULTI_SZ data: the strings up to the empty one that ends the list.
std::vector<std::string> RegistryMultiString(const std::vector<std::uint8_t>& bytes);

// A high-integrity (elevated) process: the Khronos loaders then ignore secure environment
// variables and HKEY_CURRENT_USER. The process token's mandatory integrity level above MEDIUM.
bool ProcessIsHighIntegrity();

}  // namespace kl::windows

#endif
