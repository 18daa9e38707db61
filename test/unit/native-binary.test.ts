// Which addon binary loads, and the one message a platform without a prebuild gets (the
// packaging test checks the same through the installed CLI and install.cjs).
import { describe, expect, it } from 'vitest';
import { availablePrebuilds, currentNativeTarget, hasPrebuild, locateAddonBinary, PrebuildMissingError } from '../../lib/core/native/binary.js';

const noBinary = (): string => {
  throw new Error('No native build was found for platform=freebsd arch=riscv64 runtime=node abi=115 uv=1 libc=glibc node=20.20.2');
};
const listing = (dirs: Record<string, string[]>) => (dir: string): string[] => {
  const entries = dirs[dir];
  if (entries === undefined) throw Object.assign(new Error(`ENOENT: ${dir}`), { code: 'ENOENT' });
  return entries;
};

describe('BUILD: the addon binary for this platform', () => {
  it('BUILD: the binary node-gyp-build resolves is the one loaded', () => {
    expect(locateAddonBinary('/pkg', () => '/pkg/prebuilds/linux-x64/khronos-loader.node', { platform: 'linux', arch: 'x64' })).toBe(
      '/pkg/prebuilds/linux-x64/khronos-loader.node',
    );
  });

  it('BUILD: where node-gyp-build picks the tools addon beside the addon (Bun lists folders unsorted), the addon of that folder is loaded', () => {
    const target = { platform: 'linux', arch: 'x64' };
    expect(locateAddonBinary('/pkg', () => '/pkg/build/Release/khronos_loader_tools.node', target)).toBe('/pkg/build/Release/khronos_loader.node');
    expect(locateAddonBinary('/pkg', () => '/pkg/prebuilds/linux-x64/khronos_loader_tools.node', target)).toBe('/pkg/prebuilds/linux-x64/khronos-loader.node');
    expect(locateAddonBinary('/pkg', () => '/pkg/build/Release/khronos_loader.node', target)).toBe('/pkg/build/Release/khronos_loader.node');
  });

  it('BUILD: no binary for the platform: one PrebuildMissingError naming the platform, the prebuilds that exist and the source build', () => {
    const list = listing({ '/pkg/prebuilds': ['linux-x64', 'linux-arm64', 'README.md'] });
    let error: unknown;
    try {
      locateAddonBinary('/pkg', noBinary, { platform: 'freebsd', arch: 'riscv64' }, list);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PrebuildMissingError);
    const missing = error as PrebuildMissingError;
    expect(missing.code).toBe('KL_NO_PREBUILD');
    expect(missing.target).toEqual({ platform: 'freebsd', arch: 'riscv64' });
    expect(missing.available).toEqual(['linux-arm64', 'linux-x64']);
    expect(missing.message).toBe(
      'khronos-loader has no prebuilt binary for freebsd-riscv64 (prebuilt: linux-arm64, linux-x64).\n' +
        'Build it from source in the package folder (needs CMake and a C++20 compiler):\n' +
        '  cd /pkg && npm install --no-save cmake-js node-addon-api && npx cmake-js build',
    );
  });

  it('BUILD: a package without prebuilds/ says so (prebuilt: none)', () => {
    expect(availablePrebuilds('/pkg', listing({}))).toEqual([]);
    expect(() => locateAddonBinary('/pkg', noBinary, { platform: 'win32', arch: 'arm64' }, listing({}))).toThrow(
      /no prebuilt binary for win32-arm64 \(prebuilt: none\)/,
    );
  });

  it('BUILD: the target is npm_config_platform / npm_config_arch when set, as node-gyp-build reads them, else this process', () => {
    expect(currentNativeTarget({ npm_config_platform: 'darwin', npm_config_arch: 'arm64' })).toEqual({ platform: 'darwin', arch: 'arm64' });
    expect(currentNativeTarget({})).toEqual({ platform: process.platform, arch: process.arch });
  });

  it('BUILD: musl Linux (Alpine): the glibc prebuild node-gyp-build would take is refused with one message naming musl and the source build; a local build still loads', () => {
    const musl = currentNativeTarget({ npm_config_platform: 'linux', npm_config_arch: 'x64' }, () => 'musl');
    expect(musl).toEqual({ platform: 'linux', arch: 'x64', libc: 'musl' });
    expect(currentNativeTarget({ npm_config_platform: 'linux', LIBC: 'musl' }, () => 'glibc').libc).toBe('musl');
    expect(currentNativeTarget({ npm_config_platform: 'linux', npm_config_arch: 'x64' }, () => 'glibc')).toEqual({ platform: 'linux', arch: 'x64' });
    const available = ['linux-arm64', 'linux-x64', 'win32-x64'];
    expect(hasPrebuild(musl, available)).toBe(false);
    expect(hasPrebuild({ platform: 'linux', arch: 'x64' }, available)).toBe(true);
    const list = listing({ '/pkg/prebuilds': available });
    let error: unknown;
    try {
      locateAddonBinary('/pkg', () => '/pkg/prebuilds/linux-x64/khronos-loader.node', musl, list);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PrebuildMissingError);
    expect((error as PrebuildMissingError).message).toBe(
      'khronos-loader has no prebuilt binary for linux-x64 with musl libc (Alpine): the prebuilt Linux binaries need glibc 2.28 or later (prebuilt: linux-arm64, linux-x64, win32-x64).\n' +
        'Build it from source in the package folder (needs CMake and a C++20 compiler; on Alpine: apk add build-base cmake linux-headers):\n' +
        '  cd /pkg && npm install --no-save cmake-js node-addon-api && npx cmake-js build',
    );
    expect(locateAddonBinary('/pkg', () => '/pkg/build/Release/khronos_loader.node', musl, list)).toBe('/pkg/build/Release/khronos_loader.node');
  });
});
