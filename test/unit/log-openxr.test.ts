// NODE-7 for OpenXR: XR_LOADER_DEBUG prints in the Khronos loader's format; JS gets every record.
import { describe, expect, it } from 'vitest';
import { emitLog, logLevelFromNative, loaderLog, type LogRecord } from '../../lib/core/log.js';
import { createXrLogger, formatXrLoaderRecord, xrLoaderDebugLevels } from '../../lib/openxr/discovery/xr-loader-debug.js';
import { discover } from '../../lib/openxr/discovery/discover.js';
import { createFixturePlatform } from '../../lib/core/platform/fixture.js';
import { envFromMap } from '../../lib/core/platform/platform.js';
import { makeTempRoot, put } from './openxr/fixtures.js';

describe('OpenXR loader logging', () => {
  it('NODE-7: records print as "<Severity> [GENERAL | <command> | <message id>] : <message>"', () => {
    expect(formatXrLoaderRecord({ level: 'error', source: 'openxr', message: 'boom', command: 'xrCreateInstance' })).toBe(
      'Error [GENERAL | xrCreateInstance | OpenXR-Loader] : boom\n',
    );
    expect(formatXrLoaderRecord({ level: 'warn', source: 'openxr', message: 'w' })).toBe('Warning [GENERAL |  | OpenXR-Loader] : w\n');
    expect(formatXrLoaderRecord({ level: 'info', source: 'openxr', message: 'i', messageId: 'VUID-x' })).toBe('Info [GENERAL |  | VUID-x] : i\n');
    expect(formatXrLoaderRecord({ level: 'debug', source: 'openxr', message: 'v' })).toBe('Verbose [GENERAL |  | OpenXR-Loader] : v\n');
  });

  it.each([
    [undefined, ['error']],
    ['', ['error']],
    ['none', []],
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['info', ['error', 'warn', 'info']],
    ['verbose', ['error', 'warn', 'info', 'debug']],
    ['all', ['error', 'warn', 'info', 'debug']],
    ['bogus', ['error']],
  ])('NODE-7: XR_LOADER_DEBUG=%s prints %j (errors always, unless "none")', (value, levels) => {
    expect([...xrLoaderDebugLevels(value)].sort()).toEqual([...levels].sort());
    const printed: string[] = [];
    const seen: LogRecord[] = [];
    const log = createXrLogger(envFromMap(value === undefined ? {} : { XR_LOADER_DEBUG: value }, false), (t) => printed.push(t), (r) => seen.push(r));
    for (const level of ['error', 'warn', 'info', 'debug'] as const) log({ level, source: 'openxr', message: level });
    expect(printed.map((p) => p.split(' ')[0])).toEqual(levels.map((l) => ({ error: 'Error', warn: 'Warning', info: 'Info', debug: 'Verbose' })[l]));
    // JavaScript listeners receive every record, whatever is printed.
    expect(seen.map((r) => r.level)).toEqual(['error', 'warn', 'info', 'debug']);
  });

  it('NODE-7: discovery records reach loaderLog listeners, and XR_LOADER_DEBUG output follows the platform\'s environment', () => {
    const { root, cleanup } = makeTempRoot();
    try {
      put(root, '/usr/share/openxr/1/api_layers/explicit.d/bad.json', '{');
      const got: LogRecord[] = [];
      const listener = (r: LogRecord): void => {
        got.push(r);
      };
      loaderLog.on('record', listener);
      const printed: string[] = [];
      try {
        discover({ platform: createFixturePlatform({ root, env: { XR_LOADER_DEBUG: 'info' } }), logWriter: (t) => printed.push(t) });
      } finally {
        loaderLog.off('record', listener);
      }
      expect(got.some((r) => r.level === 'info' && r.message.startsWith('Looking for active_runtime.x86_64.json'))).toBe(true);
      expect(printed.some((p) => p.startsWith('Info [GENERAL |  | OpenXR-Loader] : Looking for active_runtime'))).toBe(true);
      expect(printed.some((p) => p.startsWith('Error [GENERAL |  | OpenXR-Loader] : /usr/share/openxr/1/api_layers/explicit.d/bad.json: not valid JSON'))).toBe(true);
      const quiet: string[] = [];
      discover({ platform: createFixturePlatform({ root, env: { XR_LOADER_DEBUG: 'none' } }), logWriter: (t) => quiet.push(t) });
      expect(quiet).toEqual([]);
    } finally {
      cleanup();
    }
  });

  it('NODE-7: native records keep flowing through emitLog and logLevelFromNative', () => {
    const got: LogRecord[] = [];
    const listener = (r: LogRecord): void => {
      got.push(r);
    };
    loaderLog.on('record', listener);
    emitLog({ level: logLevelFromNative(1), source: 'native', message: 'm' });
    loaderLog.off('record', listener);
    expect(got).toEqual([{ level: 'warn', source: 'native', message: 'm' }]);
    expect(logLevelFromNative(99)).toBe('debug');
  });
});
