// Values a public function must refuse with a TypeError or a typed error, never a crash, for the
// property-based tests over the public API (fast-check): wrong types, NaN and infinities, huge
// and negative numbers, detached and resizable buffers, SharedArrayBuffer views, proxies and
// getters that throw.
import fc from 'fast-check';
import { expect } from 'vitest';
import { PACKAGE_ERROR_CODES } from '../../lib/core/errors.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { VulkanError } from '../../lib/vulkan/errors.js';
import { XrResult } from '../../lib/generated/openxr.js';
import { VkResult } from '../../lib/generated/vulkan.js';
import { HandleDestroyedError, InvalidStateError } from '../../lib/core/errors.js';

/** What the proxies and getters below throw: the application's own error, which may pass through. */
export class ApplicationError extends Error {}

export function detachedFloat32Array(length = 16): Float32Array {
  const a = new Float32Array(length);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  // fast-check prints a counterexample by iterating it, which a detached array refuses.
  Object.defineProperty(a, fc.toStringMethod, { value: () => `detached Float32Array(${length})` });
  return a;
}

// Resizable ArrayBuffers (ES2024; Node 20 has them, this project's TypeScript lib does not name them).
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
const ResizableArrayBufferCtor = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;
export function resizableBuffer(byteLength: number, maxByteLength: number): ResizableArrayBuffer {
  return new ResizableArrayBufferCtor(byteLength, { maxByteLength });
}

/** A view over a resizable ArrayBuffer that has since shrunk under it (out of bounds: length 0). */
export function shrunkResizableView(length = 16): Float32Array {
  const buffer = resizableBuffer(length * 4, length * 8);
  const view = new Float32Array(buffer, 0, length);
  buffer.resize(4);
  return view;
}

/** A length-tracking view over a resizable ArrayBuffer (its length follows the buffer's). */
export function trackingResizableView(length = 16): Float32Array {
  return new Float32Array(resizableBuffer(length * 4, length * 16));
}

export function sharedView(length = 16): Float32Array {
  return new Float32Array(new SharedArrayBuffer(length * 4));
}

/**
 * A proxy whose string-keyed reads and `in` checks throw (symbol keys and prototype reads pass, so
 * fast-check itself can handle and print the value).
 */
export function throwingProxy(): object {
  return new Proxy(
    {},
    {
      get: (target, key) => {
        if (typeof key === 'symbol') return Reflect.get(target, key) as unknown;
        throw new ApplicationError(`proxy get ${key}`);
      },
      has: (target, key) => {
        if (typeof key === 'symbol') return Reflect.has(target, key);
        throw new ApplicationError(`proxy has ${key}`);
      },
    },
  );
}

/** An object whose every named field is a getter that throws. */
export function throwingGetters(fields: readonly string[]): object {
  const o = {};
  for (const f of fields) {
    Object.defineProperty(o, f, {
      enumerable: true,
      get: () => {
        throw new ApplicationError(`getter ${f}`);
      },
    });
  }
  return o;
}

const oddNumbers = fc.constantFrom(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  -1,
  0.5,
  -(2 ** 31),
  2 ** 31,
  2 ** 32,
  2 ** 32 + 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
);
const oddBigInts = fc.constantFrom(-1n, 2n ** 64n, 2n ** 64n - 1n, -(2n ** 63n) - 1n, 2n ** 128n, 0n);
const oddBuffers = fc.constantFrom('detached', 'shrunk', 'tracking', 'shared', 'dataview', 'empty', 'float64', 'int8').map((kind) => {
  switch (kind) {
    case 'detached': return detachedFloat32Array();
    case 'shrunk': return shrunkResizableView();
    case 'tracking': return trackingResizableView();
    case 'shared': return sharedView();
    case 'dataview': return new DataView(new ArrayBuffer(64));
    case 'empty': return new Float32Array(0);
    case 'float64': return new Float64Array(16);
    default: return new Int8Array(64);
  }
});
const hostile = fc.constantFrom('proxy', 'getters', 'symbol', 'function', 'nullproto').map((kind) => {
  switch (kind) {
    case 'proxy': return throwingProxy();
    case 'getters': return throwingGetters(['applicationName', 'headless', 'graphics', 'name', 'localizedName', 'type', 'queueCreateInfos', 'size', 'usage', 'length', 'valueOf', 'toString']);
    case 'symbol': return Symbol('bad');
    case 'function': return () => 1;
    default: return Object.create(null) as object;
  }
});

/** Any value a public function may be handed by mistake. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.anything({ withBigInt: true, withTypedArray: true, withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withDate: true, withSparseArray: true, maxDepth: 2 }), weight: 3 },
  { arbitrary: oddNumbers, weight: 2 },
  { arbitrary: oddBigInts, weight: 1 },
  { arbitrary: oddBuffers, weight: 2 },
  { arbitrary: hostile, weight: 2 },
  { arbitrary: fc.string({ maxLength: 300 }), weight: 1 },
);

/** Whether `code` is one of the codes docs/usage.md "Errors" documents: a KL_ code, an XrResult or a VkResult name. */
export function documentedCode(code: unknown): boolean {
  if (typeof code !== 'string') return false;
  return (PACKAGE_ERROR_CODES as readonly string[]).includes(code) || Object.hasOwn(XrResult, code) || Object.hasOwn(VkResult, code) || /^XR_RESULT_-?\d+$|^VkResult\(-?\d+\)$/.test(code);
}

/**
 * Calls `f`; it may succeed, or throw a TypeError, RangeError, a typed loader error (a destroyed
 * handle's HandleDestroyedError among them) or the
 * application's own error. With `codes`, every error but the application's must also carry a
 * documented string `code` (nothing without one leaks from the native side).
 */
export function refusedCleanly(f: () => unknown, codes = true): unknown {
  try {
    return f();
  } catch (e) {
    const ok = e instanceof TypeError || e instanceof RangeError || e instanceof InvalidStateError || e instanceof HandleDestroyedError || e instanceof OpenXrError || e instanceof VulkanError || e instanceof ApplicationError;
    expect(ok, `threw ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`).toBe(true);
    if (codes && !(e instanceof ApplicationError)) {
      const code = (e as { code?: unknown }).code;
      expect(documentedCode(code), `threw ${(e as Error)?.constructor?.name} with code ${String(code)}: ${(e as Error)?.message}`).toBe(true);
    }
    return undefined;
  }
}

/**
 * Runs `call` with bad values in every argument position, and with each bad value among the good
 * ones; what a call still creates is destroyed again (unless it is one of `keep`), so runs do not
 * pile up handles.
 */
export function everyPosition(goodArgs: readonly unknown[], call: (args: unknown[]) => unknown, keep: readonly unknown[] = [], numRuns = 150, codes = true): void {
  fc.assert(
    fc.property(fc.array(badValue, { minLength: goodArgs.length, maxLength: goodArgs.length }), fc.nat(Math.max(0, goodArgs.length - 1)), (bad, at) => {
      const mixed = [...goodArgs];
      mixed[at] = bad[at];
      for (const args of [bad, mixed]) {
        const made = refusedCleanly(() => call(args), codes);
        if (made && !keep.includes(made) && typeof (made as { destroy?: unknown }).destroy === 'function') (made as { destroy(): void }).destroy();
      }
    }),
    { numRuns },
  );
}

/** everyPosition() where every error (but the application's own) must carry a documented `code` (NODE-2). */
export function everyPositionWithCodes(goodArgs: readonly unknown[], call: (args: unknown[]) => unknown, keep: readonly unknown[] = []): void {
  everyPosition(goodArgs, call, keep, 150, true);
}
