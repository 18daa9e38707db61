// The generated OpenXR bindings: every command of xr.xml (core 1.0, 1.1 and the extensions the
// generator selects) as a function over plain objects. The functions are built from the command
// list; the native side (native/openxr/addon/openxr_commands.cc) marshals through generated tables.
import { XR_GENERATED_COMMANDS, type XrCommands } from '../generated/openxr-commands.js';
import type { Instance } from './api/instance.js';
import { nativeInstanceOf } from './api/handles.js';
import { rethrowNative } from './errors.js';
import { loadOpenXrAddon } from './native/addon.js';

export type * from '../generated/openxr-commands.js';
export { XR_GENERATED_COMMANDS };
/** The `type` values of the structures (XR_TYPE_...), for next chains and base-header pointers. */
export { XrStructureType } from '../generated/openxr.js';

/** The bindings, with the XrInstance they are bound to (null for the pre-instance commands only). */
export type OpenXrCommands = XrCommands & { readonly instanceHandle: bigint | null };

/**
 * The generated bindings bound to an instance: a typed-API `Instance`, or the handle the generated
 * `xrCreateInstance` returned. Without one, only the pre-instance commands work
 * (`xrEnumerateApiLayerProperties`, `xrEnumerateInstanceExtensionProperties`, `xrCreateInstance`,
 * which work from the plan published with `loader.publishPlan()`).
 *
 * Arguments follow the C signature without counts and capacities (arrays carry their lengths);
 * handles, atoms, times and 64-bit values are bigints; each call returns `{ result, ...outputs }`
 * by the C parameter names and throws `OpenXrError` on failure — `XR_ERROR_FUNCTION_UNSUPPORTED`,
 * before anything reaches native code, for a command of an extension the instance did not enable.
 */
export function openXrCommands(instance?: Instance | bigint): OpenXrCommands {
  const addon = loadOpenXrAddon();
  let native;
  try {
    native = new addon.OpenXrCommands(instance === undefined || typeof instance === 'bigint' ? instance : nativeInstanceOf(instance));
  } catch (error) {
    rethrowNative(error);
  }
  const bound = native;
  const commands: Record<string, unknown> = { instanceHandle: bound.instance };
  XR_GENERATED_COMMANDS.forEach((name, index) => {
    commands[name] = (...args: unknown[]): unknown => {
      try {
        return bound.call(index, args);
      } catch (error) {
        rethrowNative(error);
      }
    };
  });
  return commands as unknown as OpenXrCommands;
}
