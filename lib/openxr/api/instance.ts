// An OpenXR instance created by this loader: it holds its native LoaderInstance directly, so its
// calls go through that instance's dispatch table with no lookup.
import type { NativeDebugUtilsMessage, NativeOpenXrCreateInfo, NativeOpenXrInstance } from '../native/addon.js';
import { XR_API_VERSION_1_0, xrVersionParts, type XrVersionParts } from '../../generated/openxr.js';
import { toNativePlan } from '../native/plan.js';
import { openXrErrorFromCode, rethrowNative } from '../errors.js';
import type { InstancePlan } from '../plan/plan.js';
import { loadOpenXrAddon } from '../native/addon.js';
import { checkCreateInstanceOptions } from './create-instance-options.js';
// The typed API (NODE-1): the methods below delegate to these modules.
import { createActionSet, suggestBindings, type ActionSet, type ActionSetOptions, type SuggestedBinding } from './action.js';
import { events, pollEvent, pollEvents, type EventIteratorOptions, type OpenXrEvent } from './events.js';
import { pathOf, registerNativeInstance } from './handles.js';
import { createSession, destroyInstanceChildren, type CreateSessionOptions, type Session } from './session.js';
import { getSystem, type System } from './system.js';
import {
  createVulkanGraphics,
  vulkanGraphicsRequirements,
  type VulkanGraphics,
  type VulkanGraphicsOptions,
  type VulkanGraphicsRequirements,
} from '../vulkan/graphics.js';
import type { FormFactorName, XrTime } from './types.js';

/** What xrCreateInstance gets: the native create info, with the debug messenger as a listener. */
export interface CreateInstanceOptions extends Omit<NativeOpenXrCreateInfo, 'debugMessenger'> {
  /** Receives the loader's debug-utils messages during xrCreateInstance (chained into XrInstanceCreateInfo.next). */
  readonly onDebugMessage?: (message: NativeDebugUtilsMessage) => void;
}

export interface DebugUtilsMessenger {
  readonly handle: bigint;
  destroy(): void;
}

export interface InstanceProperties {
  readonly runtimeName: string;
  /** The runtime's own version: `major`, `minor`, `patch`, `text` ("24.0.2"), and the XrVersion value as `packed`. */
  readonly runtimeVersion: XrVersionParts;
}

/** @internal */
export { nativeInstanceOf } from './handles.js';

export class Instance {
  readonly #native: NativeOpenXrInstance;
  /** The extensions the application asked for in xrCreateInstance. */
  readonly enabledExtensionNames: readonly string[];

  /** @internal Use loader.createInstance() or createInstanceFromPlan(). */
  constructor(native: NativeOpenXrInstance, enabledExtensionNames: readonly string[] = []) {
    this.#native = native;
    this.enabledExtensionNames = Object.freeze([...enabledExtensionNames]);
    registerNativeInstance(this, native);
  }

  /** The XrInstance handle the application sees (the top of the chain's). */
  get handle(): bigint {
    return this.#call(() => this.#native.handle);
  }

  /** The enabled API layers, nearest the application first (after implicit layers that failed were left out). */
  get apiLayerNames(): readonly string[] {
    return this.#call(() => this.#native.apiLayerNames);
  }

  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  /**
   * The function pointer for any command, as a BigInt for other native code. It is the
   * top of the call chain's pointer (the first layer's, or the runtime's), from the dispatch table
   * for known commands and through the chain for others — except xrGetInstanceProcAddr and
   * xrDestroyInstance, which are the loader's own exported functions (so destruction unloads the
   * chain), as in the Khronos loader. Throws OpenXrError (XR_ERROR_FUNCTION_UNSUPPORTED, ...).
   */
  getInstanceProcAddr(name: string): bigint {
    return this.#call(() => this.#native.getInstanceProcAddr(name));
  }

  getProperties(): InstanceProperties {
    const { runtimeName, runtimeVersion } = this.#call(() => this.#native.getProperties());
    return { runtimeName, runtimeVersion: xrVersionParts(runtimeVersion) };
  }

  /**
   * XR_EXT_debug_utils (enable it in enabledExtensionNames): a messenger created through the
   * chain. The loader, the layers and the runtime (when it has the extension) report to it; the
   * listener is called asynchronously on this thread. Destroyed with the instance at the latest.
   */
  createDebugUtilsMessenger(
    listener: (message: NativeDebugUtilsMessage) => void,
    options: { severities?: number; types?: number } = {},
  ): DebugUtilsMessenger {
    const handle = this.#call(() => this.#native.createDebugUtilsMessenger(listener, options.severities ?? 0x1111, options.types ?? 0xf));
    let destroyed = false;
    return {
      handle,
      destroy: () => {
        if (destroyed || this.#native.isDestroyed) return;
        destroyed = true;
        this.#call(() => this.#native.destroyDebugUtilsMessenger(handle));
      },
    };
  }

  /** xrSubmitDebugUtilsMessageEXT (severity and type bits as in XrDebugUtilsMessage*FlagsEXT). */
  submitDebugUtilsMessage(severity: number, types: number, message: string): void {
    this.#call(() => this.#native.submitDebugUtilsMessage(severity, types, message));
  }

  /**
   * CLOCK_MONOTONIC now as this runtime's XrTime, through xrConvertTimespecTimeToTimeKHR: enable
   * XR_KHR_convert_timespec_time, or this throws OpenXrError XR_ERROR_FUNCTION_UNSUPPORTED.
   */
  monotonicNowAsXrTime(): XrTime {
    // Checked here: a layer may hand out its own pointer for a command whose extension is not
    // enabled and crash when it is called (Debian's core_validation 1.0.20 does).
    this.requireExtension('XR_KHR_convert_timespec_time', 'xrConvertTimespecTimeToTimeKHR');
    return this.#call(() => loadOpenXrAddon().openxrConvertMonotonicNow(this.#native));
  }

  /** @internal Throws XR_ERROR_FUNCTION_UNSUPPORTED unless the application enabled `extension`. */
  requireExtension(extension: string, command: string): void {
    if (!this.enabledExtensionNames.includes(extension)) {
      throw openXrErrorFromCode(-7, `${command} needs ${extension}, which this instance did not enable (enabledExtensionNames)`);
    }
  }

  /** xrGetSystem for a form factor (default 'head-mounted-display'). */
  getSystem(formFactor?: FormFactorName): System {
    return getSystem(this, formFactor);
  }

  /**
   * xrCreateSession: headless by default (XR_MND_headless must be enabled on this instance), or
   * rendering through Vulkan with `{ graphics: { vulkan: createVulkanGraphics(...) } }`.
   */
  createSession(system: System, options?: CreateSessionOptions): Session {
    return createSession(this, system, options);
  }

  /** xrGetVulkanGraphicsRequirements2KHR (XR_KHR_vulkan_enable2 enabled on this instance). */
  vulkanGraphicsRequirements(system: System): VulkanGraphicsRequirements {
    return vulkanGraphicsRequirements(this, system);
  }

  /**
   * The Vulkan instance, physical device and device for `system`, created through the runtime
   * (XR_KHR_vulkan_enable2) with this package's Vulkan loader: `options.loader`'s plan is
   * published first. Destroy them (graphics.instance.destroy()) after the sessions using them.
   */
  createVulkanGraphics(system: System, options: VulkanGraphicsOptions): VulkanGraphics {
    return createVulkanGraphics(this, system, options);
  }

  /** xrCreateActionSet. */
  createActionSet(options: ActionSetOptions): ActionSet {
    return createActionSet(this, options);
  }

  /** xrSuggestInteractionProfileBindings. */
  suggestBindings(interactionProfile: string, bindings: readonly SuggestedBinding[]): void {
    suggestBindings(this, interactionProfile, bindings);
  }

  /** xrStringToPath (cached). */
  stringToPath(path: string): bigint {
    return pathOf(this, path);
  }

  /** xrPollEvent: the next event or null; session events also reach their Session ('stateChanged'). */
  pollEvent(): OpenXrEvent | null {
    return pollEvent(this);
  }

  /** Drains the event queue. */
  pollEvents(): OpenXrEvent[] {
    return pollEvents(this);
  }

  /** The events as an async iterator (polls on a timer; ends when the instance is destroyed or the signal aborts). */
  events(options?: EventIteratorOptions): AsyncGenerator<OpenXrEvent, void, undefined> {
    return events(this, options);
  }

  /**
   * xrDestroyInstance down the chain, then the layers and runtime are unloaded (reference
   * counted). Its sessions are destroyed first (their frame threads stopped); every child handle
   * is invalid afterwards. A second call does nothing (as close() across Node).
   */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    destroyInstanceChildren(this);
    this.#call(() => this.#native.destroy());
  }

  #call<T>(f: () => T): T {
    if (this.#native.isDestroyed) throw openXrErrorFromCode(-12, 'the OpenXR instance has been destroyed');
    try {
      return f();
    } catch (error) {
      rethrowNative(error);
    }
  }
}

/** Creates an instance from a plan (the plan's runtime and layers; the options' names go into XrInstanceCreateInfo). */
export function createInstanceFromPlan(plan: Pick<InstancePlan, 'runtime' | 'apiLayers'>, options: CreateInstanceOptions): Instance {
  checkCreateInstanceOptions(options, 'createInstanceFromPlan(plan, options)');
  const addon = loadOpenXrAddon();
  try {
    const native = new addon.OpenXrInstance(toNativePlan(plan), {
      applicationName: options.applicationName,
      applicationVersion: options.applicationVersion ?? 0,
      engineName: options.engineName ?? '',
      engineVersion: options.engineVersion ?? 0,
      apiVersion: options.apiVersion ?? XR_API_VERSION_1_0,
      enabledApiLayerNames: options.enabledApiLayerNames ?? [],
      enabledExtensionNames: options.enabledExtensionNames ?? [],
      ...(options.onDebugMessage ? { debugMessenger: options.onDebugMessage } : {}),
    });
    return new Instance(native, options.enabledExtensionNames ?? []);
  } catch (error) {
    rethrowNative(error);
  }
}
