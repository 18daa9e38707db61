// instance.startDebugMessenger(listener) with VK_LAYER_KHRONOS_validation in the chain on the real
// driver: a message raised on this thread reaches the listener inside the Vulkan call that raised
// it (heard before anything that call leads to, a crash included), stop() ends it, and a child that
// crashes right after an invalid command still printed the message first. The invalid commands go
// through the addon's raw recording functions: the typed API refuses them before Vulkan sees them.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/core/native/load.js';
import { InvalidArgumentError } from '../../lib/core/errors.js';
import { vulkanCompute } from '../../lib/vulkan/native/addon.js';
import { VK_API_VERSION_1_1, type DebugMessage, type Instance } from '../../lib/vulkan/index.js';
import { missingRealDriver, missingValidation, REAL_DRIVER_MANIFEST, realDriverLoader } from '../helpers/vulkan-lavapipe.js';

const skip = missingRealDriver() ?? missingValidation();
const ERROR = 0x1000;
// "A valid pipeline must be bound" (the VUID's number changed between validation-layer releases).
const NO_PIPELINE = /VUID-vkCmdDispatch-None-(02700|08606)/;

let open: Instance[] = [];
afterEach(() => {
  for (const i of open) if (!i.isDestroyed) i.destroy();
  open = [];
});

function validated(): Instance {
  const instance = realDriverLoader().createInstance({
    applicationName: 'kl-debug-listener',
    apiVersion: VK_API_VERSION_1_1,
    enabledLayerNames: ['VK_LAYER_KHRONOS_validation'],
    enabledExtensionNames: ['VK_EXT_debug_utils'],
  });
  open.push(instance);
  return instance;
}

describe.skipIf(skip !== null)('startDebugMessenger(listener) with the validation layer', () => {
  it('VKSTATE: a validation error reaches the listener inside the call that raised it; stop() ends the messages; severities filter them', () => {
    const instance = validated();
    const heard: DebugMessage[] = [];
    const errorsOnly: DebugMessage[] = [];
    const messenger = instance.startDebugMessenger((m) => heard.push(m));
    const errorMessenger = instance.startDebugMessenger((m) => errorsOnly.push(m), { severities: ERROR });
    const device = instance.enumeratePhysicalDevices()[0]!.createDevice({ queueCreateInfos: [{ queueFamilyIndex: 0, queuePriorities: [1] }] });
    const cb = device.createCommandPool(0).allocateCommandBuffer().begin();
    const before = heard.length;
    vulkanCompute().cmdDispatch(cb.handle, 1, 1, 1); // no pipeline bound
    // No await between the call and here: the message was delivered during the call.
    const raised = heard.slice(before).filter((m) => m.severity === ERROR);
    expect(raised.map((m) => m.messageIdName).join(' ')).toMatch(NO_PIPELINE);
    expect(raised[0]!.message).toMatch(/vkCmdDispatch/);
    expect(errorsOnly.length).toBeGreaterThan(0);
    expect(errorsOnly.every((m) => m.severity === ERROR)).toBe(true);
    messenger.stop();
    expect(messenger.isStopped).toBe(true);
    messenger.stop(); // twice: nothing
    const count = heard.length;
    const errors = errorsOnly.length;
    vulkanCompute().cmdDispatch(cb.handle, 1, 1, 1);
    expect(heard.length).toBe(count);
    expect(errorsOnly.length).toBeGreaterThan(errors); // the other listener still hears
    errorMessenger.stop();
    instance.destroy();
    expect(() => messenger.stop()).not.toThrow();
  });

  it('VKSTATE: the listener\'s arguments are checked (InvalidArgumentError naming them)', () => {
    const instance = validated();
    expect(() => instance.startDebugMessenger('x' as never)).toThrow(InvalidArgumentError);
    expect(() => instance.startDebugMessenger(() => {}, { severities: 0 })).toThrow(/options.severities must be a non-zero mask/);
    expect(() => instance.startDebugMessenger(() => {}, { types: 0x80 })).toThrow(/options.types/);
  });

  it('VKSTATE: a process that crashes right after an invalid command has delivered the validation message to its listener first', () => {
    // The child writes each message synchronously to stdout, records a dispatch with no pipeline
    // through the raw function and submits it: lavapipe crashes on it (or, on another driver,
    // may not). Either way the message is on stdout, written before the submission.
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/vulkan-misuse/fixtures/crash-after-message.ts'], {
      cwd: packageRoot,
      env: { ...process.env, VK_DRIVER_FILES: REAL_DRIVER_MANIFEST },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const lines = child.stdout.split('\n');
    const message = lines.findIndex((l) => NO_PIPELINE.test(l));
    const submitting = lines.indexOf('submitting');
    expect(message, child.stdout + child.stderr).toBeGreaterThanOrEqual(0);
    expect(submitting).toBeGreaterThan(message);
    process.stderr.write(`[VKSTATE debug listener] the child ended with ${child.signal ?? `exit ${child.status}`} after hearing the message\n`);
  });
});
