// The generic unknown-command trampolines (native/vulkan/loader/unknown_functions.cc) called directly with
// fake loader objects by test/native/vulkan_trampoline_check: natively (x86-64 here), and
// cross-compiled for AArch64 and run under qemu-user (Debian g++-aarch64-linux-gnu,
// qemu-user-static), and for Windows x64 with mingw-w64 and run under wine (Debian
// g++-mingw-w64-x86-64, wine64). Every slot, integer, floating-point and stack arguments passed through.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, testNativeDir } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';
import { createWine } from '../../scripts/platforms/wine.js';

const check = path.join(testNativeDir, 'vulkan_trampoline_check/kl_vk_trampoline_check');
const sources = [path.join(repoRoot, 'test/native/vulkan_trampoline_check/trampoline_check.cc'), path.join(repoRoot, 'native/vulkan/loader/unknown_functions.cc')];
const AARCH64_SYSROOT = '/usr/aarch64-linux-gnu';
const missingNative = missingSystemComponent({ 'test/native kl_vk_trampoline_check': [check] });
const missingCross = missingSystemComponent({
  'AArch64 cross compiler (g++-aarch64-linux-gnu)': ['/usr/bin/aarch64-linux-gnu-g++'],
  'AArch64 C library (libc6-arm64-cross)': [path.join(AARCH64_SYSROOT, 'lib/ld-linux-aarch64.so.1')],
  'qemu-user for AArch64 (qemu-user-static)': ['/usr/bin/qemu-aarch64-static', '/usr/bin/qemu-aarch64'],
});

const missingWindows = missingSystemComponent({
  'mingw-w64 cross compiler (g++-mingw-w64-x86-64)': ['/usr/bin/x86_64-w64-mingw32-g++-posix'],
  'wine (wine64)': ['/usr/lib/wine/wine64', '/usr/bin/wine64', '/usr/bin/wine'],
});

describe('generic unknown-command trampolines', () => {
  it.skipIf(missingNative !== null || !['x64', 'arm64'].includes(process.arch))('VK-CH-4: on this machine every physical-device and device stub reaches its slot with the arguments unchanged (the physical device replaced by its next handle)', () => {
    expect(execFileSync(check, { encoding: 'utf8' }).trim()).toBe('trampolines ok: 128 calls');
  });

  it.skipIf(missingCross !== null)('VK-CH-4: the AArch64 stubs do the same under qemu (cross-compiled, with branch protection)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kl-aarch64-'));
    try {
      const program = path.join(dir, 'trampoline_check');
      execFileSync('aarch64-linux-gnu-g++', ['-std=c++20', '-O2', '-Wall', '-Wextra', '-Werror', '-mbranch-protection=standard', '-I', path.join(repoRoot, 'native'), ...sources, '-pthread', '-o', program], { stdio: ['ignore', 'ignore', 'inherit'] });
      const qemu = ['/usr/bin/qemu-aarch64-static', '/usr/bin/qemu-aarch64'].find((q) => { try { execFileSync(q, ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })!;
      expect(execFileSync(qemu, ['-cpu', 'max', '-L', AARCH64_SYSROOT, program], { encoding: 'utf8' }).trim()).toBe('trampolines ok: 128 calls');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(missingWindows !== null)('VK-CH-4: the Windows x64 stubs (first argument in rcx) do the same under wine (mingw-w64 cross-compiled)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kl-win64-'));
    try {
      const program = path.join(dir, 'trampoline_check.exe');
      execFileSync('x86_64-w64-mingw32-g++-posix', ['-std=c++20', '-O2', '-Wall', '-Wextra', '-Werror', '-I', path.join(repoRoot, 'native'), ...sources, '-static', '-o', program], { stdio: ['ignore', 'ignore', 'inherit'] });
      const wine = createWine(path.join(repoRoot, 'build/wine-prefix-tests'));
      expect(wine.run([program], dir).trim()).toBe('trampolines ok: 128 calls');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
