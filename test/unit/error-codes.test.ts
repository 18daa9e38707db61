// One code scheme (NODE-2, docs/usage.md "Errors"): every error class the package exports carries a
// string `code` of the documented set — a KL_ code from the docs' table, or (OpenXrError,
// VulkanError and their subclasses) the result's name, with the number as `resultValue`.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as pkg from '../../lib/index.js';
import * as core from '../../lib/core/index.js';
import { XrResult } from '../../lib/generated/openxr.js';
import { VkResult } from '../../lib/generated/vulkan.js';
import { repoRoot } from '../helpers/paths.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** Every exported class that is an Error, by name, from the package's entries (namespaces followed). */
function exportedErrorClasses(...modules: object[]): Map<string, ErrorClass> {
  const found = new Map<string, ErrorClass>();
  const visit = (m: object, depth: number): void => {
    for (const value of Object.values(m)) {
      if (typeof value === 'function' && value.prototype instanceof Error) found.set(value.name, value as ErrorClass);
      else if (depth < 1 && typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Module]') visit(value, depth + 1);
    }
  };
  for (const m of modules) visit(m, 0);
  return found;
}

/** One instance of each exported error class, made as the package makes them. */
const INSTANCES: Readonly<Record<string, () => Error>> = {
  OpenXrError: () => new pkg.openxr.OpenXrError('XR_ERROR_PATH_FORMAT_INVALID', 'xrCreateActionSet failed'),
  VulkanError: () => new pkg.vulkan.VulkanError(-6, 'a layer is missing'),
  VulkanLayerNotPresentError: () => new pkg.vulkan.VulkanLayerNotPresentError('VK_LAYER_missing', 0),
  VulkanProcessLoaderError: () => new pkg.vulkan.VulkanProcessLoaderError('/usr/lib/libvulkan.so.1', 'another loader is loaded'),
  CommandStreamError: () => new pkg.vulkan.CommandStreamError('unknown-opcode', 0, 99, 0, 'unknown opcode 99'),
  InvalidArgumentError: () => core.invalidArgument('options.size', 'a safe integer', 2 ** 60),
  InvalidStateError: () => new pkg.InvalidStateError('not recording'),
  HandleDestroyedError: () => new pkg.HandleDestroyedError('the VkSwapchainKHR was destroyed'),
  LibraryError: () => new pkg.LibraryError('missing', '/x.so', 'missing'),
  UnavailableError: () => new pkg.UnavailableError('no Vulkan driver'),
  InternalError: () => new pkg.InternalError('an invariant broke'),
  PrebuildMissingError: () => new pkg.PrebuildMissingError({ platform: 'freebsd', arch: 'riscv64' }, [], '/pkg'),
};

/** The KL_ codes the table of docs/usage.md's "Errors" section documents. */
function documentedPackageCodes(): string[] {
  const doc = readFileSync(path.join(repoRoot, 'docs', 'usage.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Errors\n'), doc.indexOf('\n## ', doc.indexOf('\n## Errors\n') + 1));
  return [...section.matchAll(/^\| `(KL_[A-Z_]+)` \|/gm)].map((m) => m[1] as string);
}

describe('one error-code scheme (NODE-2)', () => {
  it('NODE-2: docs/usage.md documents exactly the package codes PACKAGE_ERROR_CODES lists', () => {
    expect(documentedPackageCodes().sort()).toEqual([...pkg.PACKAGE_ERROR_CODES].sort());
  });

  it('NODE-2: every error class the package exports has a string code of the documented set', () => {
    const classes = exportedErrorClasses(pkg, core);
    // A new exported error class needs an entry above (and a row in the docs when its code is new).
    expect([...classes.keys()].sort()).toEqual(Object.keys(INSTANCES).sort());
    for (const [name, make] of Object.entries(INSTANCES)) {
      const error = make() as Error & { code?: unknown; result?: unknown; resultValue?: unknown };
      expect(error, name).toBeInstanceOf(classes.get(name) as ErrorClass);
      expect(typeof error.code, name).toBe('string');
      const code = error.code as string;
      if (code.startsWith('XR_')) {
        expect([error.result, error.resultValue], name).toEqual([code, XrResult[code as keyof typeof XrResult]]);
      } else if (code.startsWith('VK_')) {
        expect([error.result, error.resultValue], name).toEqual([code, VkResult[code as keyof typeof VkResult]]);
      } else {
        expect(pkg.PACKAGE_ERROR_CODES, name).toContain(code);
      }
    }
  });

  it('NODE-2: an InvalidArgumentError names the argument, what it needs and what it got (an unsafe integer as such)', () => {
    const e = core.invalidArgument('options.size', 'a safe integer', 2 ** 60);
    expect([e.code, e.argument, e.name]).toEqual(['KL_INVALID_ARGUMENT', 'options.size', 'InvalidArgumentError']);
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe('options.size must be a safe integer, got 1152921504606846976 (not a safe integer)');
    expect(() => core.requireInteger(2 ** 60, 'size', 0, Number.MAX_SAFE_INTEGER)).toThrow(/size is 1152921504606846976, beyond Number.MAX_SAFE_INTEGER/);
  });

  it('NODE-2: OpenXrError and VulkanError: code and result are the name, resultValue the number, also for a value the registry does not name', () => {
    const xr = new pkg.openxr.OpenXrError('XR_ERROR_SESSION_NOT_RUNNING', 'xrBeginFrame failed');
    expect([xr.code, xr.result, xr.resultValue]).toEqual(['XR_ERROR_SESSION_NOT_RUNNING', 'XR_ERROR_SESSION_NOT_RUNNING', -16]);
    const vk = new pkg.vulkan.VulkanError(-1_000_999_999, 'an unnamed result');
    expect([vk.code, vk.result, vk.resultValue]).toEqual(['VkResult(-1000999999)', 'VkResult(-1000999999)', -1_000_999_999]);
  });
});

describe('no error without a code (NODE-2)', () => {
  it('NODE-2: lib/ throws no bare Error, TypeError or RangeError: every throw site uses a class of the one code scheme', () => {
    const offenders: string[] = [];
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'generated') walk(file);
        } else if (entry.name.endsWith('.ts')) {
          readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
            if (/new (Error|TypeError|RangeError|SyntaxError)\(/.test(line)) offenders.push(`${path.relative(repoRoot, file)}:${i + 1}`);
          });
        }
      }
    };
    walk(path.join(repoRoot, 'lib'));
    expect(offenders).toEqual([]);
  });
});
