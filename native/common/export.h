// Marks a C function a shared library exports: default visibility on ELF targets (everything
// else is built hidden), __declspec(dllexport) on Windows (where, once one function is marked,
// the DLL exports only the marked ones).
#pragma once

#ifdef _WIN32
#define KL_EXPORT_C extern "C" __declspec(dllexport)
#else
#define KL_EXPORT_C extern "C" __attribute__((visibility("default")))
#endif
