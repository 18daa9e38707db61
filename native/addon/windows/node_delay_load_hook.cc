// The addon's N-API imports name node.exe and are delay-loaded (cmake/Windows.cmake): the first
// napi_* call asks this hook which module "node.exe" is, and it answers with the module that
// already holds N-API in this process — node.dll where Node is built as a library, else the
// process's own executable, whatever its file name (node.exe renamed, Electron). Without it,
// Windows would look for a file named node.exe and fail in any other host. The same rule as
// node-gyp's win_delay_load_hook.cc, for mingw-w64's delay-load helper (libmingwex).
#include "common/windows_headers.h"

#include <delayimp.h>

namespace {

FARPROC WINAPI ResolveNodeModule(unsigned notification, PDelayLoadInfo info) {
  if (notification != dliNotePreLoadLibrary || info == nullptr || info->szDll == nullptr) return nullptr;
  if (lstrcmpiA(info->szDll, "node.exe") != 0) return nullptr;
  HMODULE node = GetModuleHandleW(L"node.dll");
  if (node == nullptr) node = GetModuleHandleW(nullptr);
  return reinterpret_cast<FARPROC>(node);
}

}  // namespace

// The helper's two hooks, defined here (constant after load) so that its own empty definitions
// are not linked in.
extern "C" {
PfnDliHook __pfnDliNotifyHook2 = ResolveNodeModule;
PfnDliHook __pfnDliFailureHook2 = nullptr;
}
