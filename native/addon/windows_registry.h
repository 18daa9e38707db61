// The Windows registry for JavaScript (lib/core/platform/windows-registry.ts wraps it as the
// Platform's RegistryView). Only on Windows: elsewhere nothing is registered.
//   windowsRegistryReadKey(hive: 'HKLM' | 'HKCU', key: string)
//     → { values: { name, type, data }[], subkeys: string[] } | null (no such key)
//     data: string (REG_SZ, REG_EXPAND_SZ unexpanded), string[] (REG_MULTI_SZ), number (REG_DWORD,
//     REG_QWORD), Uint8Array (every other type); a key that cannot be read throws an Error with
//     code 'KL_REGISTRY_ERROR' naming the key and the system's reason.
//   windowsHighIntegrity() → boolean
#pragma once

#include <napi.h>

namespace kl::napi {

void RegisterWindowsRegistry(Napi::Env env, Napi::Object exports);

}  // namespace kl::napi
