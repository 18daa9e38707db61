// The physical-device filters of the current Khronos loader, parsed here and applied by the native
// core: VK_LOADER_DEVICE_SELECT ("vendor:device" in hex, as sscanf "%x:%x" reads it; that device is
// reported first), VK_LOADER_{DEVICE,VENDOR,DRIVER}_ID_FILTER (comma-separated ids or ranges
// "begin-end", each number as strtoul(..., 0) reads it: 0x hex, leading 0 octal, else decimal; only
// devices inside every given filter are kept; read securely), VK_LOADER_DISABLE_SELECT (no Linux
// sort) and VK_LOADER_DISABLE_INST_EXT_FILTER.
import type { PlatformEnv } from '../../core/platform/platform.js';
import { MAX_FILTER_ENTRIES } from './name-filter.js';
import type { VulkanDeviceFilters } from '../plan/plan.js';

/** sscanf "%x": optional whitespace, optional 0x, hex digits; returns the value and the rest. */
function scanHex(s: string): { value: number; rest: string } | undefined {
  const m = /^\s*[+-]?(?:0[xX])?([0-9a-fA-F]+)/.exec(s);
  if (!m || m[1] === undefined) return undefined;
  return { value: Number.parseInt(m[1].slice(-8), 16) >>> 0, rest: s.slice(m[0].length) };
}

export function parseDeviceSelect(value: string | undefined): VulkanDeviceFilters['deviceSelect'] {
  if (value === undefined) return undefined;
  const vendor = scanHex(value);
  if (!vendor || !vendor.rest.startsWith(':')) return undefined;
  const device = scanHex(vendor.rest.slice(1));
  if (!device) return undefined;
  return { vendorId: vendor.value, deviceId: device.value };
}

/** strtoul(s, &end, 0) */
function strtoul0(s: string): { value: number; end: number } {
  const m = /^\s*[+-]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(s);
  if (!m || m[1] === undefined) return { value: 0, end: 0 };
  const t = m[1];
  const value = /^0[xX]/.test(t) ? Number.parseInt(t.slice(2), 16) : t.length > 1 && t.startsWith('0') ? Number.parseInt(t, 8) : Number.parseInt(t, 10);
  const negative = m[0].includes('-');
  return { value: (negative ? -value : value) >>> 0, end: m[0].length };
}

export function parseIdFilter(value: string | undefined): readonly (readonly [number, number])[] | undefined {
  if (!value) return undefined;
  const ranges: [number, number][] = [];
  for (const token of value.toLowerCase().split(',')) {
    if (token === '') continue;
    if (ranges.length >= MAX_FILTER_ENTRIES) break;
    const begin = strtoul0(token);
    const rest = token.slice(begin.end);
    ranges.push([begin.value, rest === '' ? begin.value : strtoul0(rest.slice(1)).value]);
  }
  return ranges;
}

/** strtol(value, NULL, 10) != 0, as the Khronos loader reads its on/off variables. */
function nonZeroNumber(value: string | undefined): boolean {
  const m = value === undefined ? null : /^\s*[+-]?\d+/.exec(value);
  return m !== null && Number.parseInt(m[0], 10) !== 0;
}

export interface DeviceFilterEnv {
  secure(name: string): string | undefined;
  readonly env: PlatformEnv;
}

export function readDeviceFilters(e: DeviceFilterEnv): { filters: VulkanDeviceFilters; disableInstanceExtensionFilter: boolean } {
  const deviceSelect = parseDeviceSelect(e.env.get('VK_LOADER_DEVICE_SELECT'));
  const deviceIdRanges = parseIdFilter(e.secure('VK_LOADER_DEVICE_ID_FILTER'));
  const vendorIdRanges = parseIdFilter(e.secure('VK_LOADER_VENDOR_ID_FILTER'));
  const driverIdRanges = parseIdFilter(e.secure('VK_LOADER_DRIVER_ID_FILTER'));
  return {
    filters: {
      ...(deviceSelect ? { deviceSelect } : {}),
      ...(nonZeroNumber(e.env.get('VK_LOADER_DISABLE_SELECT')) ? { disableSort: true as const } : {}),
      ...(deviceIdRanges ? { deviceIdRanges } : {}),
      ...(vendorIdRanges ? { vendorIdRanges } : {}),
      ...(driverIdRanges ? { driverIdRanges } : {}),
    },
    disableInstanceExtensionFilter: nonZeroNumber(e.env.get('VK_LOADER_DISABLE_INST_EXT_FILTER')),
  };
}
