// The typed surface API (docs/usage.md "Surfaces and presentation") against bad arguments (NODE-1,
// NODE-2), property-based (fast-check), on headless surfaces of the project's test driver
// (kl_vk_driver_surfaces): createSurface(), presentationSupport(), the surface queries,
// createSwapchain(), and acquireNextImage() / present() in any order against a model of the
// driver's images (handed out in turn, given back by present), destroyed surfaces, semaphores and
// devices. These run under the sanitizers (scripts/test-sanitize.sh).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInstanceFromPlan, type Device, type Instance, type PhysicalDevice, type Surface } from '../../lib/vulkan/index.js';
import { driver, plan, testLibrary, VK_API_VERSION_1_3 } from '../vulkan-native/helpers.js';
import { badValue, everyPosition, refusedCleanly } from './bad-values.js';

const queue = { queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] };

describe('Vulkan surfaces and swapchains against bad arguments (fast-check, headless surfaces on the test driver)', () => {
  const surfacesPlan = plan([driver(testLibrary('vulkan_test_driver', 'kl_vk_driver_surfaces'))]);
  const FIFO = 2;
  let instance: Instance;
  let pd: PhysicalDevice;
  let device: Device;
  let surface: Surface;
  beforeAll(() => {
    instance = createInstanceFromPlan(surfacesPlan, { applicationName: 'wsi properties', apiVersion: VK_API_VERSION_1_3, enabledExtensionNames: ['VK_KHR_surface', 'VK_EXT_headless_surface'] });
    pd = instance.enumeratePhysicalDevices()[0]!;
    device = pd.createDevice({ ...queue, enabledExtensionNames: ['VK_KHR_swapchain'] });
    surface = instance.createSurface({ headless: true });
  });
  afterAll(() => instance.destroy());
  const goodOptions = () => ({ format: 44, extent: { width: 16, height: 16 }, imageCount: 3, presentMode: FIFO, usage: 0x10 });

  it('NODE-1, NODE-2, VK-WSI-6: createSurface(), presentationSupport(), the surface queries and createSwapchain()', () => {
    // The value that once got past the checks (an uncoded TypeError building the message), first on every run.
    expect(() => device.createSwapchain(surface, { ...goodOptions(), colorSpace: Symbol('bad') } as never)).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
    everyPosition([{ headless: true }], ([s]) => instance.createSurface(s as never));
    everyPosition([0, { headless: true }], ([q, t]) => pd.presentationSupport(q as never, t as never));
    everyPosition([pd, 0], ([p, q]) => surface.supportsPresent(p as never, q as never));
    everyPosition([pd], ([p]) => surface.capabilities(p as never));
    everyPosition([pd], ([p]) => surface.formats(p as never));
    everyPosition([pd], ([p]) => surface.presentModes(p as never));
    everyPosition([surface, goodOptions()], ([s, o]) => device.createSwapchain(s as never, o as never));
    for (const field of ['format', 'colorSpace', 'extent', 'imageCount', 'presentMode', 'usage', 'compositeAlpha', 'oldSwapchain']) {
      for (const bad of [...fc.sample(badValue, 10), 0, -1, 2 ** 32, { width: 0, height: 16 }, { width: 2 ** 32, height: 1 }, 'x'.repeat(1 << 20)]) {
        const made = refusedCleanly(() => device.createSwapchain(surface, { ...goodOptions(), [field]: bad } as never));
        if (made instanceof Object && 'destroy' in made) (made as { destroy(): void }).destroy();
      }
    }
    expect(surface.isDestroyed).toBe(false);
  });

  it('NODE-1, NODE-2, VK-WSI-5: acquireNextImage() and present() in any order with any timeout, index, queue and semaphores: each answers what a model of the images says (handed out in turn, given back by present), or a typed error; then destroyed', () => {
    type Op = { kind: 'acquire'; timeout: unknown } | { kind: 'present'; index: unknown; options: unknown } | { kind: 'bad-present'; queue: unknown };
    const timeout = fc.oneof(fc.constantFrom(undefined, 0, 0n, 1_000n, 2n ** 64n - 1n, Number.MAX_SAFE_INTEGER), badValue);
    const index = fc.oneof(fc.nat(4), badValue);
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('acquire' as const), timeout }),
      fc.record({ kind: fc.constant('present' as const), index, options: fc.oneof(fc.constant(undefined), fc.constant({}), badValue) }),
      fc.record({ kind: fc.constant('bad-present' as const), queue: badValue }),
    );
    const queue0 = device.queue(0);
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
    const validTimeout = (t: unknown): boolean => t === undefined || (typeof t === 'bigint' ? t >= 0n && t < 2n ** 64n : typeof t === 'number' && Number.isSafeInteger(t) && t >= 0);
    let checked = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 24 }), (ops) => {
        const swapchain = device.createSwapchain(surface, goodOptions());
        const n = swapchain.images.length;
        // First on every run: an image never acquired once reached vkQueuePresentKHR.
        expect(outcome(() => swapchain.present(queue0, 0))).toEqual({ code: 'KL_INVALID_STATE' });
        // The model: the driver hands out the next image not acquired, in turn; present gives one back.
        const acquired = new Set<number>();
        let next = 0;
        try {
          for (const o of ops) {
            if (o.kind === 'acquire') {
              const got = outcome(() => (o.timeout === undefined ? swapchain.acquireNextImage() : swapchain.acquireNextImage(o.timeout as never)));
              if (typeof o.timeout === 'object' && o.timeout !== null) {
                // AcquireOptions (of bad fields, or none): refused before the driver, or an image in turn.
                if ('code' in got) expect(['KL_INVALID_ARGUMENT', 'undefined', 'VK_TIMEOUT', 'VK_NOT_READY']).toContain(got.code);
                else {
                  let i = next;
                  while (acquired.has(i)) i = (i + 1) % n;
                  expect(got).toEqual({ value: { imageIndex: i, suboptimal: false } });
                  acquired.add(i);
                  next = (i + 1) % n;
                }
              } else if (!validTimeout(o.timeout)) expect(got).toEqual({ code: 'KL_INVALID_ARGUMENT' });
              else if (acquired.size === n) expect(got).toEqual({ code: o.timeout === 0 || o.timeout === 0n ? 'VK_NOT_READY' : 'VK_TIMEOUT' });
              else {
                let i = next;
                while (acquired.has(i)) i = (i + 1) % n;
                expect(got).toEqual({ value: { imageIndex: i, suboptimal: false } });
                acquired.add(i);
                next = (i + 1) % n;
              }
            } else if (o.kind === 'present') {
              const options = o.options;
              const got = outcome(() => (options === undefined ? swapchain.present(queue0, o.index as never) : swapchain.present(queue0, o.index as never, options as never)));
              let goodOptions: boolean;
              try {
                // Any object is an options bag, as everywhere in the typed API: an array has no waitSemaphores.
                goodOptions = options === undefined || (typeof options === 'object' && options !== null && (options as { waitSemaphores?: unknown }).waitSemaphores === undefined);
              } catch {
                goodOptions = false; // a throwing proxy or getter
              }
              if (!goodOptions || typeof o.index !== 'number' || !Number.isInteger(o.index) || o.index < 0 || o.index >= n) {
                expect('code' in got, JSON.stringify(got)).toBe(true);
              } else if (!acquired.has(o.index)) {
                // An image not acquired never reaches vkQueuePresentKHR (VUID-VkPresentInfoKHR-pImageIndices-01430).
                expect(got).toEqual({ code: 'KL_INVALID_STATE' });
              } else {
                expect(got).toEqual({ value: { suboptimal: false } });
                acquired.delete(o.index);
              }
            } else {
              const held = [...acquired][0] ?? 0;
              // A typed refusal (or the application's own error from its proxy or getter: 'undefined').
              expect(outcome(() => swapchain.present(o.queue as never, held))).toMatchObject({ code: expect.stringMatching(/^KL_|^undefined$/) });
            }
            checked++;
          }
        } finally {
          swapchain.destroy();
        }
        for (const call of [() => swapchain.acquireNextImage(), () => swapchain.acquireNextImage(0), () => swapchain.present(queue0, 0)]) {
          expect(outcome(call)).toEqual({ code: 'KL_HANDLE_DESTROYED' });
        }
      }),
      // A random run's counterexample, first on every run: an array as present()'s options.
      { numRuns: 60, examples: [[[{ kind: 'acquire', timeout: {} }, { kind: 'present', index: 0, options: [] }]]] },
    );
    expect(checked).toBeGreaterThan(0);
  });

  it('NODE-1, VK-WSI-6: a destroyed surface, semaphore or device handed to the WSI calls: a typed error, no crash', () => {
    const own = instance.createSurface({ headless: true });
    const ownDevice = pd.createDevice({ ...queue, enabledExtensionNames: ['VK_KHR_swapchain'] });
    const swapchain = ownDevice.createSwapchain(own, goodOptions());
    const semaphore = ownDevice.createSemaphore();
    semaphore.destroy();
    const outcomes: string[] = [];
    const code = (what: string, call: () => unknown): void => {
      try {
        call();
        outcomes.push(`${what}: no error`);
      } catch (e) {
        refusedCleanly(() => {
          throw e;
        });
        outcomes.push(`${what}: ${(e as { code?: string }).code}`);
      }
    };
    code('acquire signalling a destroyed semaphore', () => swapchain.acquireNextImage({ semaphore }));
    code('present waiting on a destroyed semaphore', () => swapchain.present(ownDevice.queue(0), 0, { waitSemaphores: [semaphore] }));
    code('destroy the surface under its swapchain', () => own.destroy());
    swapchain.destroy();
    own.destroy();
    code('capabilities of a destroyed surface', () => own.capabilities(pd));
    code('createSwapchain on a destroyed surface', () => ownDevice.createSwapchain(own, goodOptions()));
    ownDevice.destroy();
    code('createSwapchain on a destroyed device', () => ownDevice.createSwapchain(surface, goodOptions()));
    expect(outcomes, outcomes.join("\n")).toEqual([
      'acquire signalling a destroyed semaphore: VK_ERROR_VALIDATION_FAILED',
      'present waiting on a destroyed semaphore: KL_INVALID_STATE',
      'destroy the surface under its swapchain: no error',
      'capabilities of a destroyed surface: KL_HANDLE_DESTROYED',
      'createSwapchain on a destroyed surface: KL_HANDLE_DESTROYED',
      'createSwapchain on a destroyed device: VK_ERROR_VALIDATION_FAILED',
    ]);
  });
});
