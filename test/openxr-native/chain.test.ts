// Instance creation, the call chain, dispatch, several instances, teardown (XR-CI-*).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { XR_COMMANDS } from '../../lib/generated/openxr.js';
import { addonBinaryPath, flushLoaderLog, loadNativeAddon, packageRoot } from '../../lib/core/native/load.js';
import { loadOpenXrAddon } from '../../lib/openxr/native/addon.js';
import { loadToolsAddon } from '../../lib/tools/native/addon.js';
import { createInstanceFromPlan, nativeInstanceOf } from '../../lib/openxr/api/instance.js';
import { freshTrace, layerDir, mappedLibraries, plannedLayer, runtimeLibrary, testPlan } from './helpers.js';
import { openXrErrorFrom } from '../helpers/errors.js';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { owningLibrary } from '../helpers/maps.js';

// The addon this process loaded (an instrumented build under the sanitizers); the disassembly check reads the product build.
const addonPath = addonBinaryPath();
const productBuild = path.join(packageRoot, 'build/Release/khronos_loader.node');
const order = ['XR_APILAYER_KLTEST_order_a', 'XR_APILAYER_KLTEST_order_b', 'XR_APILAYER_KLTEST_order_c'];

afterEach(() => {
  delete process.env.KL_TEST_TRACE;
});

describe('instance creation and call chain', () => {
  it('XR-CI-3: each layer gets its own XrApiLayerNextInfo, nearest the application first, then the runtime', () => {
    const trace = freshTrace();
    const instance = createInstanceFromPlan(testPlan(order), { applicationName: 'ci3', enabledApiLayerNames: order });
    const lines = trace();
    expect(lines.filter((l) => l.endsWith(':create') || l.startsWith('runtime:xrCreateInstance'))).toEqual([
      'layer:XR_APILAYER_KLTEST_order_a:create',
      'layer:XR_APILAYER_KLTEST_order_b:create',
      'layer:XR_APILAYER_KLTEST_order_c:create',
      'runtime:xrCreateInstance:ci3',
    ]);
    // Each layer checks XrApiLayerCreateInfo/XrApiLayerNextInfo headers and that nextInfo names it.
    expect(lines.some((l) => l.includes('wrong-next-info') || l.includes('bad-create-info'))).toBe(false);
    instance.getProperties();
    expect(trace().filter((l) => l.includes('xrGetInstanceProperties'))).toEqual([
      'layer:XR_APILAYER_KLTEST_order_a:xrGetInstanceProperties',
      'layer:XR_APILAYER_KLTEST_order_b:xrGetInstanceProperties',
      'layer:XR_APILAYER_KLTEST_order_c:xrGetInstanceProperties',
      'runtime:xrGetInstanceProperties',
    ]);
    instance.destroy();
  });

  it('XR-CI-4: the terminator calls the runtime\'s xrCreateInstance and resolves commands from the runtime', () => {
    const trace = freshTrace();
    const instance = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_intercept']), {
      applicationName: 'ci4',
      enabledExtensionNames: ['XR_MND_headless'],
    });
    expect(trace()).toContain('runtime:xrCreateInstance:ci4:XR_MND_headless');
    // The layer resolved xrGetSystem etc. through the terminator's xrGetInstanceProcAddr: calls arrive.
    expect(instance.getProperties()).toEqual({
      runtimeName: 'khronos-loader test runtime',
      runtimeVersion: { major: 0, minor: 4, patch: 2, text: '0.4.2', packed: (4n << 32n) | 2n },
    });
    instance.destroy();
  });

  it('XR-CI-4: a layer failing in xrCreateApiLayerInstance fails instance creation with its result', () => {
    const trace = freshTrace();
    const error = openXrErrorFrom(() => createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_create_fail']), { applicationName: 'cf' }));
    expect(error.result).toBe('XR_ERROR_INITIALIZATION_FAILED');
    expect(error.message).toContain('XR_APILAYER_KLTEST_create_fail');
    expect(trace()).toContain('layer:XR_APILAYER_KLTEST_create_fail:create-fails');
    expect(trace().some((l) => l.startsWith('runtime:xrCreateInstance'))).toBe(false);
  });

  it('XR-CI-5: commands the loader does not know resolve through the chain on demand', () => {
    const withExtra = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_extra']), { applicationName: 'ci5' });
    const lib = new (loadNativeAddon().NativeLibrary)(path.join(layerDir, 'libkl_test_layer_extra.so'));
    expect(withExtra.getInstanceProcAddr('xrKlTestPingKL')).toBe(lib.requireSymbolAddress('klTestLayerPing'));
    lib.close();
    withExtra.destroy();
    const without = createInstanceFromPlan(testPlan([]), { applicationName: 'ci5' });
    expect(openXrErrorFrom(() => without.getInstanceProcAddr('xrKlTestPingKL')).result).toBe('XR_ERROR_FUNCTION_UNSUPPORTED');
    without.destroy();
  });

  it('XR-CI-5: the table is filled from the top of the chain (a layer\'s intercept is what the table holds)', () => {
    const plain = createInstanceFromPlan(testPlan([]), { applicationName: 'ci5' });
    const runtimeLocate = plain.getInstanceProcAddr('xrLocateSpace');
    plain.destroy();
    const layered = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_passthrough_0']), { applicationName: 'ci5' });
    const layerLocate = layered.getInstanceProcAddr('xrLocateSpace');
    // The pointer lies inside the pass-through layer's mapping (its xrLocateSpace intercept).
    expect(owningLibrary(layerLocate)).toBe(path.join(layerDir, 'libkl_test_layer_passthrough_0.so'));
    expect(owningLibrary(runtimeLocate)).toBe(runtimeLibrary());
    expect(owningLibrary(layered.getInstanceProcAddr('xrGetSystem'))).toBe(runtimeLibrary());
    layered.destroy();
  });

  it('XR-CI-6: the addon exports a trampoline for xrGetInstanceProcAddr and every core command', () => {
    const lib = new (loadNativeAddon().NativeLibrary)(addonPath);
    const core = XR_COMMANDS.filter((c) => c.requiredBy === 'XR_VERSION_1_0' || c.requiredBy === 'XR_VERSION_1_1');
    expect(core.length).toBeGreaterThan(50);
    for (const c of core) expect(lib.symbolAddress(c.name), c.name).not.toBeNull();
    lib.close();
  });

  it('XR-CI-6: a trampoline is one table load and one indirect call (disassembled)', () => {
    const disassembly = execFileSync('objdump', ['-d', '--no-show-raw-insn', productBuild], { maxBuffer: 64 << 20 }).toString();
    const body = disassembly.split('\n\n').find((block) => block.includes('<xrLocateSpace>:'))!;
    const instructions = body.split('\n').filter((l) => /^\s+[0-9a-f]+:\s/.test(l)).map((l) => l.split('\t').slice(1).join(' ').trim());
    const beforeJump = instructions.slice(0, instructions.findIndex((i) => i.startsWith('jmp') && i.includes('*')) + 1);
    // load the live instance, test/branch, load the table entry, test/branch, jump through it:
    // no calls, no stack frame (the several-instances path is out of line).
    expect(beforeJump.length).toBeLessThanOrEqual(7);
    expect(beforeJump.filter((i) => i.startsWith('call') || i.startsWith('push'))).toEqual([]);
    expect(beforeJump.filter((i) => i.startsWith('mov') && i.includes('(')).length).toBe(2);
  });

  it('XR-CI-6: calls through the exported trampoline and through the instance\'s pointer reach the runtime', () => {
    const instance = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_passthrough_0']), {
      applicationName: 'ci6',
      enabledExtensionNames: ['XR_MND_headless'],
    });
    const trace = freshTrace();
    const r = loadToolsAddon().benchOpenXrLocateSpace(nativeInstanceOf(instance), 1000, 1);
    expect(r.trampolineNs).toBeGreaterThan(0);
    expect(r.procAddrNs).toBeGreaterThan(0);
    // The runtime counted them: per path a warm-up of 101 calls and 1000 timed ones, trampoline
    // and pointer, all on the one space the bench locates (traced when the bench destroys it).
    expect(trace().filter((l) => l.startsWith('runtime:xrLocateSpace:'))).toEqual(['runtime:xrLocateSpace:calls:2202']);
    instance.destroy();
  });

  it('XR-CI-6: the exported xrCreateInstance, which has no plan, answers XR_ERROR_RUNTIME_UNAVAILABLE and says why', async () => {
    const trace = freshTrace();
    const records: LogRecord[] = [];
    const listener = (r: LogRecord): void => void records.push(r);
    loaderLog.on('record', listener);
    // A C caller of the addon's exported symbol (koffi, a devDependency, calls it as C code would).
    const koffi = (await import('koffi')).default;
    const addon = koffi.load(addonPath);
    const create = addon.func('int32_t xrCreateInstance(void *info, _Out_ uint64_t *instance)');
    const handle = [0];
    expect(create(null, handle)).toBe(-51); // XR_ERROR_RUNTIME_UNAVAILABLE
    expect(handle[0]).toBe(0);
    await flushLoaderLog();
    loaderLog.off('record', listener);
    expect(records.map((r) => r.message)).toContainEqual(expect.stringMatching(/^xrCreateInstance was called through the native entry point, which has no plan/));
    // No runtime was loaded or called.
    expect(trace()).toEqual([]);
  });

  it('XR-CI-7: xrDestroyInstance goes down the chain, then layers and runtime are unloaded (/proc/self/maps)', () => {
    const addon = loadNativeAddon();
    const trace = freshTrace();
    const before = addon.openLibraryCount();
    const libs = [runtimeLibrary(), ...order.map((n) => plannedLayer(n).libraryPath)];
    for (const l of libs) expect(mappedLibraries().has(l)).toBe(false);
    const instance = createInstanceFromPlan(testPlan(order), { applicationName: 'ci7' });
    for (const l of libs) expect(mappedLibraries().has(l), l).toBe(true);
    instance.destroy();
    expect(trace().filter((l) => l.endsWith(':destroy') || l.startsWith('runtime:xrDestroyInstance'))).toEqual([
      'layer:XR_APILAYER_KLTEST_order_a:destroy',
      'layer:XR_APILAYER_KLTEST_order_b:destroy',
      'layer:XR_APILAYER_KLTEST_order_c:destroy',
      'runtime:xrDestroyInstance:ci7',
    ]);
    for (const l of libs) expect(mappedLibraries().has(l), l).toBe(false);
    expect(addon.openLibraryCount()).toBe(before);
  });

  it('XR-CI-7: libraries shared by two instances stay loaded until the last one is destroyed', () => {
    const a = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_order_a']), { applicationName: 'a' });
    const b = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_order_a']), { applicationName: 'b' });
    a.destroy();
    expect(mappedLibraries().has(runtimeLibrary())).toBe(true);
    expect(b.getProperties().runtimeName).toBe('khronos-loader test runtime');
    b.destroy();
    expect(mappedLibraries().has(runtimeLibrary())).toBe(false);
  });

  it('XR-CI-7: the exported xrDestroyInstance (from getInstanceProcAddr) is the loader\'s, so it unloads too', () => {
    const instance = createInstanceFromPlan(testPlan([]), { applicationName: 'x' });
    const lib = new (loadNativeAddon().NativeLibrary)(addonPath);
    expect(instance.getInstanceProcAddr('xrDestroyInstance')).toBe(lib.requireSymbolAddress('xrDestroyInstance'));
    expect(instance.getInstanceProcAddr('xrGetInstanceProcAddr')).toBe(lib.requireSymbolAddress('xrGetInstanceProcAddr'));
    lib.close();
    instance.destroy();
  });

  it('XR-CI-10: xrGetInstanceProcAddr with XR_NULL_HANDLE answers only the instance-less functions', () => {
    const addon = loadOpenXrAddon();
    for (const name of ['xrGetInstanceProcAddr', 'xrCreateInstance', 'xrEnumerateApiLayerProperties', 'xrEnumerateInstanceExtensionProperties']) {
      expect(addon.openxrGetInstanceProcAddr(0n, name)).toBeGreaterThan(0n);
    }
    for (const name of ['xrDestroyInstance', 'xrLocateSpace', 'xrGetSystem', 'xrKlTestPingKL']) {
      let code: unknown;
      try {
        addon.openxrGetInstanceProcAddr(0n, name);
      } catch (e) {
        code = (e as { xrResult?: number }).xrResult;
      }
      expect(code, name).toBe(-12); // XR_ERROR_HANDLE_INVALID
    }
  });

  it('XR-CI-11: layers may intercept a subset, wrap the instance handle and add commands; the loader only uses the handle it got', () => {
    const trace = freshTrace();
    const layers = ['XR_APILAYER_KLTEST_intercept', 'XR_APILAYER_KLTEST_extra', 'XR_APILAYER_KLTEST_wrap'];
    const instance = createInstanceFromPlan(testPlan(layers), { applicationName: 'ci11', enabledExtensionNames: ['XR_MND_headless'] });
    expect(trace()).toContain('layer:XR_APILAYER_KLTEST_wrap:wrapped');
    expect(instance.getProperties().runtimeName).toBe('khronos-loader test runtime');
    // The exported xrGetInstanceProcAddr finds the instance by the (wrapped) handle the application holds.
    expect(loadOpenXrAddon().openxrGetInstanceProcAddr(instance.handle, 'xrGetSystem')).toBe(instance.getInstanceProcAddr('xrGetSystem'));
    const r = loadToolsAddon().benchOpenXrLocateSpace(nativeInstanceOf(instance), 100, 1);
    expect(r.trampolineNs).toBeGreaterThan(0);
    expect(instance.getInstanceProcAddr('xrKlTestPingKL')).toBeGreaterThan(0n);
    instance.destroy();
    const lines = trace();
    // The intercept layer saw only what it intercepts: no xrCreateSession lines from it.
    expect(lines.some((l) => l.startsWith('layer:XR_APILAYER_KLTEST_intercept:xrCreateSession'))).toBe(false);
    expect(lines).toContain('layer:XR_APILAYER_KLTEST_intercept:xrGetSystem');
    expect(lines.at(-1)).toBe('runtime:xrDestroyInstance:ci11');
  });
});

describe('several instances at once', () => {
  it('XR-CI-6: two live instances with different chains each dispatch through their own table', () => {
    const trace = freshTrace();
    const a = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_order_a']), { applicationName: 'A', enabledExtensionNames: ['XR_MND_headless'] });
    const b = createInstanceFromPlan(testPlan(['XR_APILAYER_KLTEST_order_b'], 'kl_test_runtime_debug_utils'), {
      applicationName: 'B',
      enabledExtensionNames: ['XR_MND_headless'],
    });
    expect(a.getProperties().runtimeName).toBe('khronos-loader test runtime');
    b.getProperties();
    const lines = trace().filter((l) => l.includes('xrGetInstanceProperties'));
    expect(lines).toEqual([
      'layer:XR_APILAYER_KLTEST_order_a:xrGetInstanceProperties',
      'runtime:xrGetInstanceProperties',
      'layer:XR_APILAYER_KLTEST_order_b:xrGetInstanceProperties',
      'runtime:xrGetInstanceProperties',
    ]);
    // The exported trampolines find each instance's table by handle when several are live.
    const addon = loadOpenXrAddon();
    const tools = loadToolsAddon();
    expect(addon.openxrGetInstanceProcAddr(a.handle, 'xrGetSystem')).toBe(a.getInstanceProcAddr('xrGetSystem'));
    expect(addon.openxrGetInstanceProcAddr(b.handle, 'xrGetSystem')).toBe(b.getInstanceProcAddr('xrGetSystem'));
    expect(tools.benchOpenXrLocateSpace(nativeInstanceOf(a), 1000, 1).trampolineNs).toBeGreaterThan(0);
    expect(tools.benchOpenXrLocateSpace(nativeInstanceOf(b), 1000, 1).trampolineNs).toBeGreaterThan(0);
    const handleA = a.handle;
    a.destroy();
    expect(() => addon.openxrGetInstanceProcAddr(handleA, 'xrGetSystem')).toThrow(/failed/);
    expect(addon.openxrGetInstanceProcAddr(b.handle, 'xrGetSystem')).toBe(b.getInstanceProcAddr('xrGetSystem'));
    b.destroy();
  });
});
