// The error class that carries an XrResult name and code, and native failures as that class.
// Names and codes come from the registry-generated table (lib/generated/openxr.ts).
import { XrResult, xrResultName, type XrResultName } from '../generated/openxr.js';

export type { XrResultName };

/** Every XrResult name → value, from the registry. */
export const XR_RESULT_CODES: Readonly<Record<XrResultName, number>> = XrResult;

/** An OpenXR failure: `.result` is the XrResult name, `.code` its value. */
export class OpenXrError extends Error {
  readonly result: XrResultName;
  readonly code: number;
  constructor(result: XrResultName, message: string) {
    super(`${result}: ${message}`);
    this.name = 'OpenXrError';
    this.result = result;
    this.code = XR_RESULT_CODES[result];
  }
}

/** An OpenXrError for an XrResult value, whatever result it is (the name from the generated table). */
export function openXrErrorFromCode(code: number, message: string): OpenXrError {
  const name = xrResultName(code) ?? `XR_RESULT_${code}`;
  const error = new OpenXrError(name as XrResultName, message);
  // errors.ts knows a subset of codes; the generated table knows them all.
  Object.defineProperty(error, 'code', { value: code, enumerable: true });
  return error;
}

/** Native errors with an XrResult ('KL_OPENXR_ERROR') become OpenXrError; anything else is rethrown as is. */
export function rethrowNative(error: unknown): never {
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_OPENXR_ERROR') {
    const code = (error as Error & { xrResult: number }).xrResult;
    throw openXrErrorFromCode(code, error.message);
  }
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_HANDLE_DESTROYED') {
    throw openXrErrorFromCode(-12, error.message);
  }
  throw error;
}
