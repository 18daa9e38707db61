// A problem found while discovering: which file, which field, why. Discovery never throws;
// everything it could not use is one of these. `R` is the API's result-name type
// (XrResultName, VkResultName): the result the problem leads to when it matters.

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export interface Diagnostic<R extends string = string> {
  readonly severity: DiagnosticSeverity;
  /** The manifest (or folder, registry value, environment variable) concerned. */
  readonly file: string;
  /** The manifest field, spelled as in the spec (e.g. "api_layer.library_path"). */
  readonly field?: string;
  readonly reason: string;
  /** The API result this problem leads to when it matters (e.g. XR_ERROR_RUNTIME_UNAVAILABLE). */
  readonly code?: R;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}${d.field ? ` [${d.field}]` : ''}: ${d.reason}${d.code ? ` (${d.code})` : ''}`;
}

/** The log level a diagnostic is logged at. */
export function diagnosticLogLevel(d: Diagnostic): 'error' | 'warn' | 'info' {
  return d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warn' : 'info';
}
