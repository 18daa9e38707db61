// A problem found while discovering: which file, which field, why. Discovery never throws;
// everything it could not use is one of these.
import type { XrResultName } from '../errors.js';

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  readonly severity: DiagnosticSeverity;
  /** The manifest (or folder, registry value, environment variable) concerned. */
  readonly file: string;
  /** The manifest field, spelled as in the spec (e.g. "api_layer.library_path"). */
  readonly field?: string;
  readonly reason: string;
  /** The XrResult this problem leads to when it matters (e.g. XR_ERROR_RUNTIME_UNAVAILABLE). */
  readonly code?: XrResultName;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}${d.field ? ` [${d.field}]` : ''}: ${d.reason}${d.code ? ` (${d.code})` : ''}`;
}
