// The error class that carries an XrResult, and native failures as that class. One code scheme
// for the package (docs/usage.md, "Errors"): `code` is the result's name as a string, as for
// every other error the package throws; `resultValue` is the XrResult number. Names and values
// come from the registry-generated table (lib/generated/openxr.ts).
import { InvalidArgumentError, InvalidStateError } from '../core/errors.js';
import { XrResult, xrResultName, type XrResultName } from '../generated/openxr.js';

export type { XrResultName };

/** Every XrResult name → value, from the registry. */
export const XR_RESULT_CODES: Readonly<Record<XrResultName, number>> = XrResult;

/** An OpenXR failure: `.code` and `.result` are the XrResult's name, `.resultValue` its value. */
export class OpenXrError extends Error {
  /** The XrResult name, e.g. 'XR_ERROR_PATH_FORMAT_INVALID' (the package's one `code` scheme). */
  readonly code: XrResultName;
  /** The XrResult name (the same as `code`). */
  readonly result: XrResultName;
  /** The XrResult value, e.g. -21. */
  readonly resultValue: number;
  constructor(result: XrResultName, message: string) {
    super(`${result}: ${message}`);
    this.name = 'OpenXrError';
    this.result = result;
    this.code = result;
    this.resultValue = XR_RESULT_CODES[result] ?? resultValueOf(result);
  }
}

/** The value of a name this registry does not know (`XR_RESULT_<n>`, made by openXrErrorFromCode). */
function resultValueOf(name: string): number {
  const m = /^XR_RESULT_(-?\d+)$/.exec(name);
  return m === null ? Number.NaN : Number(m[1]);
}

/** An OpenXrError for an XrResult value, whatever result it is (the name from the generated table). */
export function openXrErrorFromCode(value: number, message: string): OpenXrError {
  const name = xrResultName(value) ?? `XR_RESULT_${value}`;
  return new OpenXrError(name as XrResultName, message);
}

/** Native errors with an XrResult ('KL_OPENXR_ERROR') become OpenXrError; anything else is rethrown as is. */
export function rethrowNative(error: unknown): never {
  throw fromNative(error);
}

/** The addon's argument errors (TypeError, code 'KL_INVALID_ARGUMENT') as InvalidArgumentError, one class for both sides. */
export function asInvalidArgument(error: unknown): unknown {
  if (error instanceof TypeError && !(error instanceof InvalidArgumentError) && (error as { code?: unknown }).code === 'KL_INVALID_ARGUMENT') {
    return new InvalidArgumentError(error.message);
  }
  return error;
}

/** A native error with an XrResult ('KL_OPENXR_ERROR') or of a destroyed handle as OpenXrError; anything else unchanged. */
export function fromNative(error: unknown): unknown {
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_OPENXR_ERROR') {
    const value = (error as Error & { xrResult: number }).xrResult;
    return openXrErrorFromCode(value, error.message);
  }
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_HANDLE_DESTROYED') {
    return openXrErrorFromCode(XrResult.XR_ERROR_HANDLE_INVALID, error.message);
  }
  // A handle the session's wait thread may be reading (its destroy() refused meanwhile).
  if (error instanceof Error && !(error instanceof InvalidStateError) && (error as { code?: unknown }).code === 'KL_INVALID_STATE') {
    return new InvalidStateError(error.message);
  }
  return asInvalidArgument(error);
}
