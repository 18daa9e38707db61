#ifdef _WIN32

#include "common/windows_registry.h"

#include "common/windows_headers.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <type_traits>

#include "common/windows_text.h"

namespace kl::windows {

namespace {

struct RegistryKeyCloser {
  void operator()(HKEY key) const noexcept { RegCloseKey(key); }
};
using OwnedKey = std::unique_ptr<std::remove_pointer_t<HKEY>, RegistryKeyCloser>;

struct HandleCloser {
  void operator()(HANDLE handle) const noexcept { CloseHandle(handle); }
};
using OwnedHandle = std::unique_ptr<std::remove_pointer_t<HANDLE>, HandleCloser>;

std::string HiveName(RegistryHive hive) { return hive == RegistryHive::LocalMachine ? "HKEY_LOCAL_MACHINE" : "HKEY_CURRENT_USER"; }

}  // namespace

RegistryError::RegistryError(const std::string& key, const std::string& reason)
    : std::runtime_error("cannot read registry key " + key + ": " + reason) {}

std::optional<RegistryKeyContents> ReadRegistryKey(RegistryHive hive, const std::string& key) {
  const std::string where = HiveName(hive) + "\\" + key;
  const auto wideKey = Utf8ToWide(key);
  if (!wideKey) throw RegistryError(where, "the key path is not valid UTF-8");
  HKEY raw = nullptr;
  const LSTATUS opened = RegOpenKeyExW(hive == RegistryHive::LocalMachine ? HKEY_LOCAL_MACHINE : HKEY_CURRENT_USER, wideKey->c_str(), 0,
                                       KEY_READ | KEY_WOW64_64KEY, &raw);
  if (opened == ERROR_FILE_NOT_FOUND || opened == ERROR_PATH_NOT_FOUND) return std::nullopt;
  if (opened != ERROR_SUCCESS) throw RegistryError(where, ErrorText(static_cast<std::uint32_t>(opened)));
  OwnedKey handle(raw);

  DWORD subkeyCount = 0, maxSubkeyLength = 0, valueCount = 0, maxNameLength = 0, maxDataLength = 0;
  const LSTATUS info = RegQueryInfoKeyW(handle.get(), nullptr, nullptr, nullptr, &subkeyCount, &maxSubkeyLength, nullptr, &valueCount,
                                        &maxNameLength, &maxDataLength, nullptr, nullptr);
  if (info != ERROR_SUCCESS) throw RegistryError(where, ErrorText(static_cast<std::uint32_t>(info)));

  RegistryKeyContents contents;
  std::wstring name(static_cast<std::size_t>(maxNameLength) + 1, L'\0');
  std::vector<std::uint8_t> data(static_cast<std::size_t>(maxDataLength) + 2);
  for (DWORD index = 0;; ++index) {
    DWORD nameLength = static_cast<DWORD>(name.size());
    DWORD dataLength = static_cast<DWORD>(data.size());
    DWORD type = 0;
    const LSTATUS status = RegEnumValueW(handle.get(), index, name.data(), &nameLength, nullptr, &type, data.data(), &dataLength);
    if (status == ERROR_NO_MORE_ITEMS) break;
    if (status == ERROR_MORE_DATA) {
      // A value grew since RegQueryInfoKeyW: make room (names are at most 16383 characters) and
      // read this index again.
      name.assign(16384, L'\0');
      data.resize(static_cast<std::size_t>(dataLength) + 2 > data.size() * 2 ? static_cast<std::size_t>(dataLength) + 2 : data.size() * 2);
      --index;
      continue;
    }
    if (status != ERROR_SUCCESS) throw RegistryError(where, ErrorText(static_cast<std::uint32_t>(status)));
    contents.values.push_back({WideToUtf8(name.data(), nameLength), static_cast<std::uint32_t>(type),
                               std::vector<std::uint8_t>(data.begin(), data.begin() + dataLength)});
  }
  std::wstring subkey(static_cast<std::size_t>(maxSubkeyLength) + 1, L'\0');
  for (DWORD index = 0;; ++index) {
    DWORD length = static_cast<DWORD>(subkey.size());
    const LSTATUS status = RegEnumKeyExW(handle.get(), index, subkey.data(), &length, nullptr, nullptr, nullptr, nullptr);
    if (status == ERROR_NO_MORE_ITEMS) break;
    if (status == ERROR_MORE_DATA) {
      subkey.assign(256, L'\0');  // key names are at most 255 characters
      --index;
      continue;
    }
    if (status != ERROR_SUCCESS) throw RegistryError(where, ErrorText(static_cast<std::uint32_t>(status)));
    contents.subkeys.push_back(WideToUtf8(subkey.data(), length));
  }
  return contents;
}

std::string RegistryTypeName(std::uint32_t type) {
  switch (type) {
    case REG_NONE: return "REG_NONE";
    case REG_SZ: return "REG_SZ";
    case REG_EXPAND_SZ: return "REG_EXPAND_SZ";
    case REG_BINARY: return "REG_BINARY";
    case REG_DWORD: return "REG_DWORD";
    case REG_DWORD_BIG_ENDIAN: return "REG_DWORD_BIG_ENDIAN";
    case REG_LINK: return "REG_LINK";
    case REG_MULTI_SZ: return "REG_MULTI_SZ";
    case REG_RESOURCE_LIST: return "REG_RESOURCE_LIST";
    case REG_FULL_RESOURCE_DESCRIPTOR: return "REG_FULL_RESOURCE_DESCRIPTOR";
    case REG_RESOURCE_REQUIREMENTS_LIST: return "REG_RESOURCE_REQUIREMENTS_LIST";
    case REG_QWORD: return "REG_QWORD";
    default: {
      char hex[16];
      std::snprintf(hex, sizeof hex, "%x", static_cast<unsigned>(type));
      return std::string("REG_0x") + hex;
    }
  }
}

namespace {
std::wstring WideUnits(const std::vector<std::uint8_t>& bytes) {
  std::wstring units(bytes.size() / sizeof(wchar_t), L'\0');
  if (!units.empty()) std::memcpy(units.data(), bytes.data(), units.size() * sizeof(wchar_t));
  return units;
}
}  // namespace

std::string RegistryString(const std::vector<std::uint8_t>& bytes) {
  std::wstring units = WideUnits(bytes);
  // Stored strings usually end with a NUL, but need not; anything after the first NUL is not text.
  const auto end = units.find(L'\0');
  if (end != std::wstring::npos) units.resize(end);
  return WideToUtf8(units);
}

std::vector<std::string> RegistryMultiString(const std::vector<std::uint8_t>& bytes) {
  const std::wstring units = WideUnits(bytes);
  std::vector<std::string> strings;
  std::size_t start = 0;
  while (start < units.size()) {
    std::size_t end = units.find(L'\0', start);
    if (end == std::wstring::npos) end = units.size();
    if (end == start) break;  // the empty string that ends the list
    strings.push_back(WideToUtf8(units.data() + start, end - start));
    start = end + 1;
  }
  return strings;
}

bool ProcessIsHighIntegrity() {
  HANDLE rawToken = nullptr;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &rawToken)) return false;
  OwnedHandle token(rawToken);
  DWORD size = 0;
  GetTokenInformation(token.get(), TokenIntegrityLevel, nullptr, 0, &size);
  if (size == 0) return false;
  std::vector<std::uint8_t> buffer(size);
  if (!GetTokenInformation(token.get(), TokenIntegrityLevel, buffer.data(), size, &size)) return false;
  const auto* label = reinterpret_cast<const TOKEN_MANDATORY_LABEL*>(buffer.data());
  const DWORD* count = reinterpret_cast<const DWORD*>(GetSidSubAuthorityCount(label->Label.Sid));
  if (count == nullptr || *count == 0) return false;
  const DWORD level = *GetSidSubAuthority(label->Label.Sid, *count - 1);
  return level > SECURITY_MANDATORY_MEDIUM_RID;  // the Khronos loaders' IsHighIntegrityLevel
}

}  // namespace kl::windows

#endif
