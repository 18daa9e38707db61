import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../lib/core/native/load.js';
import { compileSharedLibrary } from '../helpers/compile.js';

const addon = loadNativeAddon();

function mappedInProcess(libraryPath: string): boolean {
  return readFileSync('/proc/self/maps', 'utf8').includes(libraryPath);
}

const probeSource = `
int kl_probe_answer(void) { return 42; }
int kl_probe_value = 7;
`;

describe('BUILD: DynamicLibrary (native/common)', () => {
  it('BUILD: opens a library and finds exported symbols, null for absent ones', () => {
    const file = compileSharedLibrary('kl_probe_symbols', probeSource);
    const library = new addon.NativeLibrary(file);
    try {
      expect(library.path).toBe(file);
      expect(typeof library.symbolAddress('kl_probe_answer')).toBe('bigint');
      expect(library.symbolAddress('kl_probe_answer')).not.toBe(0n);
      expect(library.symbolAddress('kl_probe_missing')).toBeNull();
    } finally {
      library.close();
    }
  });

  it('BUILD: a missing symbol throws an error carrying path, symbol and the dlerror text', () => {
    const file = compileSharedLibrary('kl_probe_missing_symbol', probeSource);
    const library = new addon.NativeLibrary(file);
    try {
      expect(() => library.requireSymbolAddress('kl_probe_nothing')).toThrow(
        expect.objectContaining({
          code: 'KL_LIBRARY_ERROR',
          path: file,
          symbol: 'kl_probe_nothing',
          reason: expect.stringContaining('undefined symbol: kl_probe_nothing'),
        }),
      );
    } finally {
      library.close();
    }
  });

  it('BUILD: a library that cannot be opened throws with the dlerror text, and nothing stays loaded', () => {
    const before = addon.openLibraryCount();
    expect(() => new addon.NativeLibrary('/nonexistent/libkl_nothing.so')).toThrow(
      expect.objectContaining({
        code: 'KL_LIBRARY_ERROR',
        path: '/nonexistent/libkl_nothing.so',
        symbol: null,
        reason: expect.stringContaining('No such file or directory'),
      }),
    );
    expect(addon.openLibraryCount()).toBe(before);
  });

  it('BUILD: a library with an unresolved dependency fails at open (RTLD_NOW), naming the symbol', () => {
    const file = compileSharedLibrary(
      'kl_probe_unresolved',
      'extern int kl_symbol_nobody_defines(void);\nint kl_probe_calls(void) { return kl_symbol_nobody_defines(); }\n',
    );
    expect(() => new addon.NativeLibrary(file)).toThrow(
      expect.objectContaining({ reason: expect.stringContaining('kl_symbol_nobody_defines') }),
    );
    expect(mappedInProcess(file)).toBe(false);
  });

  it('BUILD: opening a path twice shares one handle; it is unloaded when the last owner closes', () => {
    const file = compileSharedLibrary('kl_probe_refcount', probeSource);
    const before = addon.openLibraryCount();
    const first = new addon.NativeLibrary(file);
    const second = new addon.NativeLibrary(file);
    expect(addon.openLibraryCount()).toBe(before + 1);
    expect(first.symbolAddress('kl_probe_value')).toBe(second.symbolAddress('kl_probe_value'));
    expect(mappedInProcess(file)).toBe(true);
    first.close();
    expect(first.isOpen).toBe(false);
    expect(mappedInProcess(file)).toBe(true);
    second.close();
    expect(addon.openLibraryCount()).toBe(before);
    expect(mappedInProcess(file)).toBe(false);
  });

  it('BUILD: using a closed library throws a typed error instead of crashing', () => {
    const file = compileSharedLibrary('kl_probe_closed', probeSource);
    const library = new addon.NativeLibrary(file);
    library.close();
    expect(() => library.symbolAddress('kl_probe_answer')).toThrow(expect.objectContaining({ code: 'KL_HANDLE_DESTROYED' }));
  });

  it('BUILD: wrong argument types throw a TypeError', () => {
    const Ctor = addon.NativeLibrary as unknown as new (path: unknown) => unknown;
    expect(() => new Ctor(42)).toThrow(TypeError);
  });
});
