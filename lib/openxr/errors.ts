// The error class that carries an XrResult name and code. Names and codes come from the
// registry-generated table (lib/generated/openxr.ts).
import { XrResult, type XrResultName } from '../generated/openxr.js';

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
