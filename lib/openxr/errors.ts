// XrResult names and codes the TypeScript side needs, and the error class that carries them.
// (The registry generator's lib/generated/openxr.ts did not exist when this was written; these
// values are from the OpenXR registry and match openxr.h.)

export const XR_RESULT_CODES = {
  XR_SUCCESS: 0,
  XR_ERROR_VALIDATION_FAILURE: -1,
  XR_ERROR_RUNTIME_FAILURE: -2,
  XR_ERROR_INITIALIZATION_FAILED: -6,
  XR_ERROR_FUNCTION_UNSUPPORTED: -7,
  XR_ERROR_EXTENSION_NOT_PRESENT: -9,
  XR_ERROR_SIZE_INSUFFICIENT: -11,
  XR_ERROR_HANDLE_INVALID: -12,
  XR_ERROR_FILE_ACCESS_ERROR: -32,
  XR_ERROR_FILE_CONTENTS_INVALID: -33,
  XR_ERROR_API_LAYER_NOT_PRESENT: -36,
  XR_ERROR_RUNTIME_UNAVAILABLE: -51,
} as const;

export type XrResultName = keyof typeof XR_RESULT_CODES;

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
