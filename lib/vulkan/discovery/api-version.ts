// Version strings in Vulkan manifests ("1.3.211"), read as the Khronos loader reads them
// (loader_make_version / loader_parse_version_string): up to three dot-separated numbers, each
// as strtol reads it, missing parts 0; packed with VK_MAKE_API_VERSION(0, major, minor, patch).

export interface VulkanVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** VK_MAKE_API_VERSION(0, major, minor, patch). */
  readonly packed: number;
}

function leadingNumber(part: string | undefined): number {
  if (part === undefined) return 0;
  const m = /^\s*[+-]?\d+/.exec(part);
  return m ? Number.parseInt(m[0], 10) : 0;
}

export function packVulkanVersion(major: number, minor: number, patch: number): number {
  return (((major & 0x7f) << 22) | ((minor & 0x3ff) << 12) | (patch & 0xfff)) >>> 0;
}

export function parseVulkanVersion(text: string): VulkanVersion {
  const parts = text.split('.');
  const major = leadingNumber(parts[0]) & 0x7f;
  const minor = leadingNumber(parts[1]) & 0x3ff;
  const patch = leadingNumber(parts[2]) & 0xfff;
  return { major, minor, patch, packed: packVulkanVersion(major, minor, patch) };
}

export function formatVulkanVersion(packed: number): string {
  return `${(packed >>> 22) & 0x7f}.${(packed >>> 12) & 0x3ff}.${packed & 0xfff}`;
}

/** atoi(): the implementation_version and spec_version strings. */
export function atoiUnsigned(text: string): number {
  const m = /^\s*[+-]?\d+/.exec(text);
  return m ? Number.parseInt(m[0], 10) >>> 0 : 0;
}
