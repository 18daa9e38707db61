// The one error-code scheme of the package (docs/usage.md, "Errors"): every error it throws has a
// string `code`. Package errors use the KL_ codes below; an API's own failures (OpenXrError,
// VulkanError) carry the result's name as their code (e.g. 'XR_ERROR_SESSION_NOT_RUNNING').

/** Codes of the errors the package itself raises (API results use their XrResult/VkResult name). */
export type PackageErrorCode =
  /** A wrong argument: its name, what it needs and what it got are in the message. */
  | 'KL_INVALID_ARGUMENT'
  /** A call made in the wrong state (a command buffer not recording, memory bound twice, …). */
  | 'KL_INVALID_STATE'
  /** A handle used after it (or its parent) was destroyed. */
  | 'KL_HANDLE_DESTROYED'
  /** A shared library that could not be loaded, or a symbol it lacks (`path`, `symbol`, `reason`). */
  | 'KL_LIBRARY_ERROR'
  /** No native addon for this platform (neither a local build nor a prebuild). */
  | 'KL_NO_PREBUILD'
  /** A Windows registry key that exists but cannot be read. */
  | 'KL_REGISTRY_ERROR'
  /** Something the call needs is not on this machine: a driver, a layer, a shader file, a format. */
  | 'KL_UNAVAILABLE'
  /** A broken invariant of the package itself (a bug to report), never a user's mistake. */
  | 'KL_INTERNAL';

/** Every PackageErrorCode, for code that checks a `code` at run time (a Record, so none is left out). */
const PACKAGE_CODES: Readonly<Record<PackageErrorCode, true>> = {
  KL_INVALID_ARGUMENT: true,
  KL_INVALID_STATE: true,
  KL_HANDLE_DESTROYED: true,
  KL_LIBRARY_ERROR: true,
  KL_NO_PREBUILD: true,
  KL_REGISTRY_ERROR: true,
  KL_UNAVAILABLE: true,
  KL_INTERNAL: true,
};

/** The package's own error codes (docs/usage.md, "Errors"); API failures use their result names instead. */
export const PACKAGE_ERROR_CODES: readonly PackageErrorCode[] = Object.freeze(Object.keys(PACKAGE_CODES) as PackageErrorCode[]);

/** Something the call needs is not on this machine (a driver, a layer, a shader file): the message names it and where it was looked for. */
export class UnavailableError extends Error {
  readonly code = 'KL_UNAVAILABLE' as const;
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}

/** A broken invariant of the package itself: a bug to report, not a user's mistake. */
export class InternalError extends Error {
  readonly code = 'KL_INTERNAL' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InternalError';
  }
}

/** A wrong argument (type, range, unsafe integer): `argument` names it. */
export class InvalidArgumentError extends TypeError {
  readonly code = 'KL_INVALID_ARGUMENT' as const;
  /** The argument's name as the caller wrote it (e.g. "options.size"), or undefined where the message says it. */
  readonly argument: string | undefined;
  constructor(message: string, argument?: string) {
    super(message);
    this.name = 'InvalidArgumentError';
    this.argument = argument;
  }
}

/** A call that is valid by its arguments but not in the object's current state. */
export class InvalidStateError extends Error {
  readonly code = 'KL_INVALID_STATE' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidStateError';
  }
}

/** A handle used after it (or its parent) was destroyed. */
export class HandleDestroyedError extends Error {
  readonly code = 'KL_HANDLE_DESTROYED' as const;
  constructor(message: string) {
    super(message);
    this.name = 'HandleDestroyedError';
  }
}

/**
 * A shared library that is missing or cannot be loaded: the same code and fields as the native
 * addon's library errors (`path`, `symbol` — null when the library itself is at fault — `reason`).
 */
export class LibraryError extends Error {
  readonly code = 'KL_LIBRARY_ERROR' as const;
  readonly path: string;
  readonly symbol: string | null;
  readonly reason: string;
  constructor(message: string, path: string, reason: string, symbol: string | null = null) {
    super(message);
    this.name = 'LibraryError';
    this.path = path;
    this.reason = reason;
    this.symbol = symbol;
  }
}

/** A library this package ships that is not where the build puts it. */
export function libraryMissing(path: string, what: string): LibraryError {
  return new LibraryError(`${what} ${path} is missing: rebuild the package (npm run build)`, path, 'missing');
}

/** `${argument} must be ${need}, got ${what it got}`: the one shape of an argument error's message. */
export function invalidArgument(argument: string, need: string, got: unknown): InvalidArgumentError {
  return new InvalidArgumentError(`${argument} must be ${need}, got ${describeValue(got)}`, argument);
}

/** How a value is shown in an error message: short, and never a thrown error itself. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'bigint') return `${value}n`;
  // An unsafe integer exactly (String(2 ** 60) rounds it to 1152921504606847000).
  if (typeof value === 'number') return Number.isSafeInteger(value) || !Number.isInteger(value) ? String(value) : `${BigInt(value)} (not a safe integer)`;
  if (value === null) return 'null';
  if (ArrayBuffer.isView(value)) return `a ${Object.prototype.toString.call(value).slice(8, -1)}`;
  try {
    if (Array.isArray(value)) return `an array of ${value.length}`;
  } catch {
    return 'a revoked proxy';
  }
  if (typeof value === 'object') {
    try {
      const name = (value as object).constructor?.name;
      return typeof name === 'string' && name !== '' ? `an object (${name})` : 'an object';
    } catch {
      return 'an object'; // a proxy or getter that throws: the message must not
    }
  }
  return typeof value;
}

/**
 * An integer argument in [min, max]: a number must be a safe integer (beyond 2^53 a number no longer
 * holds every integer, so an unsafe one is named as such: pass a bigint); a bigint is range-checked.
 */
export function requireInteger(value: unknown, argument: string, min: number | bigint, max: number | bigint): number | bigint {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new InvalidArgumentError(`${argument} must be an integer in [${min}, ${max}], got ${describeValue(value)}`, argument);
    if (!Number.isSafeInteger(value)) {
      throw new InvalidArgumentError(`${argument} is ${BigInt(value)}, beyond Number.MAX_SAFE_INTEGER (2^53 - 1), where a number cannot hold every integer: pass a bigint`, argument);
    }
    if (value < min || value > max) throw new InvalidArgumentError(`${argument} must be in [${min}, ${max}], got ${value}`, argument);
    return value;
  }
  if (typeof value === 'bigint') {
    if (value < BigInt(min) || value > BigInt(max)) throw new InvalidArgumentError(`${argument} must be in [${min}, ${max}], got ${value}n`, argument);
    return value;
  }
  throw new InvalidArgumentError(`${argument} must be an integer in [${min}, ${max}], got ${describeValue(value)}`, argument);
}
