/* bcryptprimitives.dll for wine 8.0, which has none: ProcessPrng, the one function Rust's standard
 * library (1.78 and later) imports from it for random bytes, here over advapi32's RtlGenRandom
 * (SystemFunction036). scripts/test-platforms.ts builds it with mingw-w64 beside rolldown's
 * Windows binding so that vitest starts under wine; nothing of it ships. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size) {
  while (size > 0) {
    ULONG chunk = size > 0x10000000 ? 0x10000000 : (ULONG)size;
    if (!RtlGenRandom(data, chunk)) return FALSE;
    data += chunk;
    size -= chunk;
  }
  return TRUE;
}
