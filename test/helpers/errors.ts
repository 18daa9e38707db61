import { expect } from 'vitest';
import { OpenXrError } from '../../lib/openxr/errors.js';

/** The OpenXrError that `f` throws; fails the test when it throws nothing or something else. */
export function openXrErrorFrom(f: () => unknown): OpenXrError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(OpenXrError);
    return e as OpenXrError;
  }
  throw new Error('expected an OpenXrError');
}
