// OpenXR diagnostics: the core Diagnostic (lib/core/diagnostics.ts) with XrResult names as codes.
import type { Diagnostic as CoreDiagnostic } from '../../core/diagnostics.js';
import type { XrResultName } from '../errors.js';

export type { DiagnosticSeverity } from '../../core/diagnostics.js';
export { formatDiagnostic } from '../../core/diagnostics.js';

export type Diagnostic = CoreDiagnostic<XrResultName>;
