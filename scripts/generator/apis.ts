// What differs between the two APIs: names, the platform header we replace, version parsing.
import type { ApiName, Registry } from './registry.js';

export interface ApiConfig {
  readonly api: ApiName;
  readonly registryFile: string;
  readonly title: string;
  /** The registry's name for the platform header that defines C built-ins and calling conventions. */
  readonly platformInclude: string;
  /** Prefix of macros and enum values (XR_, VK_) and of types (Xr, Vk). */
  readonly macroPrefix: string;
  readonly typePrefix: string;
  /** Prefix of command names (xr, vk). */
  readonly commandPrefix: string;
  /** The calling-convention macro used in function pointer types. */
  readonly ptrMacro: string;
  /** Hand-written replacement for openxr_platform_defines.h / vk_platform.h. */
  readonly platformPreamble: string;
  /** Output file base names. */
  readonly typesHeader: string;
  readonly commandsHeader: string;
  readonly tsModule: string;
  /** Extensions a macro protects that still get a header of their own, over another API's generated types. */
  readonly protectedPlatform?: ProtectedPlatformConfig;
}

export interface ProtectedPlatformConfig {
  /** The protecting macro (XR_USE_GRAPHICS_API_VULKAN). */
  readonly macro: string;
  /** The header the registry names for the foreign types (vulkan/vulkan.h). */
  readonly requires: string;
  /** The API whose generated types header defines them. */
  readonly foreignApi: ApiName;
  /** Output file base name. */
  readonly header: string;
}

const XR_PREAMBLE = `#include <stddef.h>
#include <stdint.h>

/* Calling conventions, as openxr_platform_defines.h defines them. */
#if !defined(XRAPI_PTR)
#if defined(_WIN32)
#define XRAPI_ATTR
#define XRAPI_CALL __stdcall
#define XRAPI_PTR XRAPI_CALL
#elif defined(__ANDROID__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7 && defined(__ARM_32BIT_STATE)
#define XRAPI_ATTR __attribute__((pcs("aapcs-vfp")))
#define XRAPI_CALL
#define XRAPI_PTR XRAPI_ATTR
#else
#define XRAPI_ATTR
#define XRAPI_CALL
#define XRAPI_PTR
#endif
#endif

/* Pointer size in bytes: handles are pointers on 64-bit targets and uint64_t elsewhere. */
#if !defined(XR_PTR_SIZE)
#if defined(__LP64__) || defined(_WIN64) || (defined(__x86_64__) && !defined(__ILP32__)) || defined(_M_X64) || \\
    defined(__ia64) || defined(_M_IA64) || defined(__aarch64__) || defined(__powerpc64__) || \\
    (defined(__riscv) && __riscv_xlen == 64)
#define XR_PTR_SIZE 8
#else
#define XR_PTR_SIZE 4
#endif
#endif

#if !defined(XR_CPP_NULLPTR_SUPPORTED)
#if (defined(__cplusplus) && __cplusplus >= 201103L) || (defined(_MSC_VER) && _MSC_VER >= 1600)
#define XR_CPP_NULLPTR_SUPPORTED 1
#else
#define XR_CPP_NULLPTR_SUPPORTED 0
#endif
#endif`;

const VK_PREAMBLE = `#include <stddef.h>
#include <stdint.h>

/* Calling conventions, as vk_platform.h defines them. */
#if !defined(VKAPI_PTR)
#if defined(_WIN32)
#define VKAPI_ATTR
#define VKAPI_CALL __stdcall
#define VKAPI_PTR VKAPI_CALL
#elif defined(__ANDROID__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7 && defined(__ARM_32BIT_STATE)
#define VKAPI_ATTR __attribute__((pcs("aapcs-vfp")))
#define VKAPI_CALL
#define VKAPI_PTR VKAPI_ATTR
#else
#define VKAPI_ATTR
#define VKAPI_CALL
#define VKAPI_PTR
#endif
#endif`;

export const OPENXR: ApiConfig = {
  api: 'openxr',
  registryFile: 'xr.xml',
  title: 'OpenXR',
  platformInclude: 'openxr_platform_defines',
  macroPrefix: 'XR_',
  typePrefix: 'Xr',
  commandPrefix: 'xr',
  ptrMacro: 'XRAPI_PTR',
  platformPreamble: XR_PREAMBLE,
  typesHeader: 'openxr_types.h',
  commandsHeader: 'openxr_commands.h',
  tsModule: 'openxr.ts',
  protectedPlatform: {
    macro: 'XR_USE_GRAPHICS_API_VULKAN',
    requires: 'vulkan/vulkan.h',
    foreignApi: 'vulkan',
    header: 'openxr_vulkan_types.h',
  },
};

export const VULKAN: ApiConfig = {
  api: 'vulkan',
  registryFile: 'vk.xml',
  title: 'Vulkan',
  platformInclude: 'vk_platform',
  macroPrefix: 'VK_',
  typePrefix: 'Vk',
  commandPrefix: 'vk',
  ptrMacro: 'VKAPI_PTR',
  platformPreamble: VK_PREAMBLE,
  typesHeader: 'vulkan_types.h',
  commandsHeader: 'vulkan_commands.h',
  tsModule: 'vulkan.ts',
};

export interface ApiVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** The registry's own version: XR_CURRENT_API_VERSION, or Vulkan's 1.x with VK_HEADER_VERSION as patch. */
export function registryVersion(reg: Registry): ApiVersion {
  if (reg.api === 'openxr') {
    const text = reg.types.get('XR_CURRENT_API_VERSION')?.text ?? '';
    const m = /XR_MAKE_VERSION\((\d+),\s*(\d+),\s*(\d+)\)/.exec(text);
    if (m === null) throw new Error('xr.xml: cannot read XR_CURRENT_API_VERSION');
    return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
  }
  const header = /VK_HEADER_VERSION\s+(\d+)/.exec(reg.types.get('VK_HEADER_VERSION')?.text ?? '');
  const complete = /\(\s*\d+\s*,\s*(\d+)\s*,\s*(\d+)\s*,/.exec(reg.types.get('VK_HEADER_VERSION_COMPLETE')?.text ?? '');
  if (header === null || complete === null) throw new Error('vk.xml: cannot read VK_HEADER_VERSION(_COMPLETE)');
  return { major: Number(complete[1]), minor: Number(complete[2]), patch: Number(header[1]) };
}

export function versionString(v: ApiVersion): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}

/** The first line of every generated file. */
export function bannerText(cfg: ApiConfig, reg: Registry): string {
  return `Generated by scripts/generate.ts from ${cfg.registryFile} (${cfg.title} ${versionString(registryVersion(reg))}). Do not edit: change the generator and run \`npm run generate\`.`;
}
