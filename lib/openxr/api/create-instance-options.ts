// The one argument xrCreateInstance cannot do without. OpenXR requires an application name
// (XrApplicationInfo::applicationName, non-empty), and the loader does not invent one: a runtime
// shows it to the user and may key per-application settings on it.
import type { CreateInstanceOptions } from './instance.js';
import { InvalidArgumentError, describeValue } from '../../core/errors.js';

/** Throws InvalidArgumentError unless `options` is an object whose applicationName is a string. */
export function checkCreateInstanceOptions(options: unknown, call: string): asserts options is CreateInstanceOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(`${call}: options must be an object with at least applicationName (OpenXR requires an application name), e.g. { applicationName: 'my-app' }, got ${describeValue(options)}`, 'options');
  }
  const name: unknown = (options as { applicationName?: unknown }).applicationName;
  if (typeof name !== 'string') {
    throw new InvalidArgumentError(`${call}: options.applicationName must be a string (OpenXR requires an application name), got ${describeValue(name)}`, 'options.applicationName');
  }
}
