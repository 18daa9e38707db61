// The OpenXR Vulkan graphics binding (XR_KHR_vulkan_enable2) against bad arguments (NODE-1,
// NODE-2), property-based (fast-check), over the simulated runtime on the real Vulkan driver (Mesa
// lavapipe; skipped with the reason where it is missing): createVulkanGraphics(),
// vulkanGraphicsRequirements(), a session with graphics, swapchainFormats(), createSwapchain(),
// and the swapchain's acquire(), wait() and release() in any order against a model of the call
// order, then destroyed. Not under the sanitizers: Mesa is not instrumented.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import { simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import type { Session } from '../../lib/openxr/api/session.js';
import type { System } from '../../lib/openxr/api/system.js';
import type { VulkanGraphics } from '../../lib/openxr/vulkan/graphics.js';
import { missingRealDriver, realDriverLoader } from '../helpers/vulkan-lavapipe.js';
import { badValue, everyPositionWithCodes as everyPosition, refusedCleanly } from './bad-values.js';

const loader = createLoader({ platform: createLinuxPlatform({ env: { ...process.env, XR_RUNTIME_JSON: simulatedRuntime(), XR_API_LAYER_PATH: '' } }), runtimeExtensions: nativeRuntimeExtensions });

const lavapipeMissing = missingRealDriver();
describe.skipIf(lavapipeMissing !== null)('OpenXR Vulkan graphics and swapchains against bad arguments (fast-check, simulated runtime on the real Vulkan driver)', () => {
  const vulkanLoader = realDriverLoader();
  /** An instance with XR_KHR_vulkan_enable2, its system, graphics and a session rendering with them. */
  function graphicsRig(): { own: Instance; system: System; graphics: VulkanGraphics; session: Session } {
    const own = loader.createInstance({ applicationName: 'properties', enabledExtensionNames: ['XR_KHR_vulkan_enable2'] });
    const ownSystem = own.getSystem();
    const graphics = own.createVulkanGraphics(ownSystem, { loader: vulkanLoader, applicationName: 'properties' });
    return { own, system: ownSystem, graphics, session: own.createSession(ownSystem, { graphics: { vulkan: graphics } }) };
  }
  function dispose(rig: { own: Instance; graphics: VulkanGraphics; session: Session }): void {
    if (!rig.session.isDestroyed) rig.session.destroy();
    rig.graphics.instance.destroy();
    rig.own.destroy();
  }

  it('NODE-1, NODE-2: createVulkanGraphics(), vulkanGraphicsRequirements(), createSession() with graphics, swapchainFormats(), depthSwapchainFormat(), createSwapchain()', () => {
    const rig = graphicsRig();
    try {
      const { own, system: s, graphics, session: ses } = rig;
      everyPosition([s], ([ss]) => own.vulkanGraphicsRequirements(ss as never));
      // Each graphics made is destroyed again (the Vulkan instance, which destroys its device).
      const madeGraphics = (v: unknown): unknown => {
        if (v !== null && typeof v === 'object' && 'instance' in v) (v as VulkanGraphics).instance.destroy();
        return undefined;
      };
      everyPosition([s, { loader: vulkanLoader, applicationName: 'p' }], ([ss, o]) => madeGraphics(own.createVulkanGraphics(ss as never, o as never)));
      for (const field of ['loader', 'applicationName', 'apiVersion', 'enabledLayerNames', 'enabledExtensionNames', 'deviceExtensionNames', 'enabledFeatures', 'queueFamilyIndex']) {
        for (const bad of fc.sample(badValue, 6)) {
          refusedCleanly(() => madeGraphics(own.createVulkanGraphics(s, { loader: vulkanLoader, applicationName: 'p', [field]: bad } as never)));
        }
      }
      const binding = { device: graphics.device, physicalDevice: graphics.physicalDevice, queueFamilyIndex: graphics.queueFamilyIndex, queueIndex: graphics.queueIndex };
      // A session made is destroyed by everyPosition (one graphics session at a time is all a system allows: the others are refused cleanly).
      ses.destroy();
      everyPosition([s, { graphics: { vulkan: binding } }], ([ss, o]) => own.createSession(ss as never, o as never));
      for (const field of Object.keys(binding)) {
        for (const bad of fc.sample(badValue, 8)) refusedCleanly(() => own.createSession(s, { graphics: { vulkan: { ...binding, [field]: bad } } } as never)?.destroy());
      }
      // The values that once got past the checks (uncoded TypeErrors), first on every run.
      expect(() => own.createSession(s, { graphics: { vulkan: { ...binding, device: {} } } } as never)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
      expect(() => own.createSession(s, { graphics: { vulkan: { ...binding, physicalDevice: null } } } as never)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
      rig.session = own.createSession(s, { graphics: { vulkan: graphics } });
      expect(() => rig.session.depthSwapchainFormat(null as never)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
      const formats = rig.session.swapchainFormats();
      expect(formats).toContain(37);
      everyPosition([{ stencil: false }], ([o]) => rig.session.depthSwapchainFormat(o as never));
      everyPosition([{ format: 37, width: 16, height: 16, usage: ['color-attachment'], sampleCount: 1, arraySize: 1, mipCount: 1, faceCount: 1 }], ([o]) => rig.session.createSwapchain(o as never));
      for (const field of ['format', 'width', 'height', 'usage', 'sampleCount', 'arraySize', 'mipCount', 'faceCount']) {
        for (const bad of [...fc.sample(badValue, 8), 0, -1, 2 ** 32, 1e9, 'x'.repeat(1 << 20)]) {
          refusedCleanly(() => rig.session.createSwapchain({ format: 37, width: 16, height: 16, [field]: bad } as never)?.destroy());
        }
      }
    } finally {
      dispose(rig);
    }
  });

  it('NODE-1, NODE-2: swapchain acquire(), wait() and release() in any order, with any timeout, then destroyed (the swapchain or its session): each answers what a model of the call order says, or a typed error', () => {
    const rig = graphicsRig();
    try {
      type Op = { kind: 'acquire' } | { kind: 'wait'; timeout: unknown } | { kind: 'release' };
      const op: fc.Arbitrary<Op> = fc.oneof(
        fc.constant({ kind: 'acquire' as const }),
        fc.constant({ kind: 'release' as const }),
        fc.record({ kind: fc.constant('wait' as const), timeout: fc.oneof(fc.constantFrom(undefined, 0, 1e9, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY, 0.5), badValue) }),
      );
      /** The error code of `call`, or its result as { value }. */
      const outcome = (call: () => unknown): { value: unknown } | { code: string } => {
        try {
          return { value: call() };
        } catch (e) {
          refusedCleanly(() => {
            throw e;
          });
          return { code: String((e as { code?: unknown }).code) };
        }
      };
      const validTimeout = (t: unknown): boolean => t === undefined || (typeof t === 'number' && t >= 0);
      let checked = 0;
      fc.assert(
        fc.property(fc.array(op, { maxLength: 24 }), fc.constantFrom('swapchain', 'session'), (ops, destroyWhat) => {
          const swapchain = rig.session.createSwapchain({ format: 37, width: 16, height: 16 });
          const n = swapchain.images.length;
          // The model (OpenXR spec, 'Swapchain Image Management'): images are handed out in turn
          // while fewer than all are acquired; only the oldest acquired one is waited on, once;
          // only a waited one is released.
          let acquired = 0;
          let next = 0;
          let waited = false;
          for (const o of ops) {
            if (o.kind === 'acquire') {
              const got = outcome(() => swapchain.acquire());
              expect(got).toEqual(acquired < n ? { value: next } : { code: 'XR_ERROR_CALL_ORDER_INVALID' });
              if (acquired < n) [acquired, next] = [acquired + 1, (next + 1) % n];
            } else if (o.kind === 'wait') {
              const got = outcome(() => (o.timeout === undefined ? swapchain.wait() : swapchain.wait(o.timeout as never)));
              if (!validTimeout(o.timeout)) expect(got).toEqual({ code: 'KL_INVALID_ARGUMENT' });
              else if (acquired > 0 && !waited) {
                expect(got).toEqual({ value: true });
                waited = true;
              } else expect(got).toEqual({ code: 'XR_ERROR_CALL_ORDER_INVALID' });
            } else {
              const got = outcome(() => swapchain.release());
              expect(got).toEqual(waited ? { value: undefined } : { code: 'XR_ERROR_CALL_ORDER_INVALID' });
              if (waited) [acquired, waited] = [acquired - 1, false];
            }
            checked++;
          }
          if (destroyWhat === 'session') {
            rig.session.destroy();
            rig.session = rig.own.createSession(rig.system, { graphics: { vulkan: rig.graphics } });
          } else swapchain.destroy();
          expect(swapchain.isDestroyed).toBe(true);
          for (const call of [() => swapchain.acquire(), () => swapchain.wait(), () => swapchain.release(), () => swapchain.wait(0), () => swapchain.handle]) {
            expect(outcome(call)).toEqual({ code: 'XR_ERROR_HANDLE_INVALID' });
          }
        }),
        { numRuns: 40 },
      );
      expect(checked).toBeGreaterThan(0);
    } finally {
      dispose(rig);
    }
  });
});
