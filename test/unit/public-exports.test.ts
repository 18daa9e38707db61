// Exported values and helpers of the package entries that no other suite reaches: what a user
// imports from khronos-loader/openxr and khronos-loader/vulkan.
import { describe, expect, it } from 'vitest';
import { LOADER_EXTENSIONS, XR_RESULT_CODES } from '../../lib/openxr/index.js';
import { createVkLogger, vkStructureTypeName } from '../../lib/vulkan/index.js';
import { VkStructureType } from '../../lib/generated/vulkan.js';
import { XR_EXTENSIONS } from '../../lib/generated/openxr.js';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';

describe('exports of the entries that no other suite reaches', () => {
  it('NODE-7: createVkLogger prints what VK_LOADER_DEBUG selects in the Khronos line format, and hands every record to loaderLog and the extra sink', () => {
    const printed: string[] = [];
    const extra: LogRecord[] = [];
    const heard: LogRecord[] = [];
    const listener = (r: LogRecord): void => void heard.push(r);
    loaderLog.on('record', listener);
    try {
      const log = createVkLogger({ get: (name) => (name === 'VK_LOADER_DEBUG' ? 'warn,driver' : undefined) }, (text) => printed.push(text), (r) => extra.push(r));
      const records: LogRecord[] = [
        { level: 'warn', source: 'vulkan', message: 'a warning' },
        { level: 'info', source: 'vulkan', message: 'an info record about nothing selected' },
        { level: 'debug', source: 'vulkan', message: 'a driver record', category: 'driver' },
        { level: 'error', source: 'vulkan', message: 'an error, not selected by warn,driver' },
      ];
      for (const r of records) log(r);
      expect(printed).toEqual([`${'[Vulkan Loader] WARNING: '.padEnd(32)}a warning\n`, `${'[Vulkan Loader] DEBUG | DRIVER: '.padEnd(32)}a driver record\n`]);
      expect(extra).toEqual(records);
      expect(heard).toEqual(records);
    } finally {
      loaderLog.off('record', listener);
    }
    // A settings file's stderr_log words replace the variable.
    const fromSettings: string[] = [];
    createVkLogger({ get: () => 'all' }, (t) => fromSettings.push(t), undefined, ['error'])({ level: 'warn', source: 'vulkan', message: 'not printed' });
    expect(fromSettings).toEqual([]);
  });

  it('GEN: vkStructureTypeName names a VkStructureType value, undefined for one vk.xml does not define', () => {
    expect(vkStructureTypeName(VkStructureType.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO)).toBe('VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO');
    expect(vkStructureTypeName(1000_000_000 + 42 * 1000 + 0x3fff)).toBeUndefined();
    for (const [name, value] of Object.entries(VkStructureType)) {
      const back = vkStructureTypeName(value);
      expect(back === undefined ? undefined : VkStructureType[back], name).toBe(value);
    }
  });

  it('GEN: XR_RESULT_CODES maps every XrResult name to its value (success >= 0, errors < 0, as xr.xml defines them)', () => {
    expect(XR_RESULT_CODES.XR_SUCCESS).toBe(0);
    expect(XR_RESULT_CODES.XR_ERROR_HANDLE_INVALID).toBe(-12);
    expect(XR_RESULT_CODES.XR_ERROR_RUNTIME_UNAVAILABLE).toBe(-51);
    // xr.xml gives one error no dir="-", so it is positive in the C header too; the list says if another appears.
    const unlike = Object.entries(XR_RESULT_CODES).filter(([name, value]) => (name.startsWith('XR_ERROR_') ? value >= 0 : value < 0));
    expect(unlike).toEqual([['XR_ERROR_FACIAL_EXPRESSION_PERMISSION_DENIED_ML', 1000482000]]);
  });

  it('XR-CI-12: LOADER_EXTENSIONS lists what the loader implements itself: XR_EXT_debug_utils at the registry version', () => {
    expect(LOADER_EXTENSIONS).toEqual([{ name: 'XR_EXT_debug_utils', extensionVersion: XR_EXTENSIONS.XR_EXT_debug_utils.specVersion }]);
    expect(XR_EXTENSIONS.XR_EXT_debug_utils.specVersion).toBeGreaterThanOrEqual(4);
  });
});
