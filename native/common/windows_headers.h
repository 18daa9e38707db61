// <windows.h> without the rarely used parts (WIN32_LEAN_AND_MEAN), for every Windows-only file.
#pragma once

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#endif
