// The core shared by every API's discovery (OpenXR now, Vulkan next): what a Khronos loader
// decides the same way whatever the API, kept once so that no API carries a second copy. It is
// the injected Platform and its OS implementations, safe manifest reading (size cap, file kinds,
// JSON errors as diagnostics), sorted *.json folder listing, search folders from environment
// variables read securely (an elevated process ignores them and says so once per variable),
// library_path resolution, "major.minor.patch" versions, diagnostics generic over the API's
// result names, the discovery context, and the logger: one `loaderLog` emitter for all APIs
// and a LogDialect per API (XR_LOADER_DEBUG, VK_LOADER_DEBUG) deciding what is printed and how.
// Nothing here knows an API's manifest fields, folder names or variables; each API's
// discovery/ folder does.
export * from './platform/index.js';
export {
  LOG_LEVELS,
  createLogger,
  emitLog,
  loaderLog,
  logLevelFromNative,
  stderrWriter,
  type LogDialect,
  type LogEnv,
  type LogLevel,
  type LogRecord,
  type LogWriter,
  type Logger,
} from './log.js';
export { diagnosticLogLevel, formatDiagnostic, type Diagnostic, type DiagnosticSeverity } from './diagnostics.js';
export {
  DEFAULT_EXTRA_SYSCONFDIR,
  DEFAULT_MAX_MANIFEST_BYTES,
  DEFAULT_SYSCONFDIR,
  createDiscoveryContext,
  type DiscoveryContext,
  type DiscoveryContextSettings,
  type DiscoveryOptions,
  type LogLine,
} from './context.js';
export { readManifestBytes, type ManifestReadContext } from './read-manifest.js';
export { atoi, isJsonObject, jsonTypeName, parseJsonObject, stripJsonComments, type Json, type JsonObject, type JsonParseOptions } from './json.js';
export { compareVersions, formatVersion, parseVersion, type Version } from './version.js';
export { compareNames, jsonFilesIn, jsonFilesInFolders, type FoundFile } from './folder-listing.js';
export { envFolders, foldersFromList, joinSearchPath, splitPathList, sysconfFolders, type SearchFolder } from './search-path.js';
export { resolveLibraryPath, type LibraryPathKind, type ResolvedLibraryPath } from './library-path.js';
export { HandleDestroyedError, InternalError, InvalidArgumentError, InvalidStateError, LibraryError, PACKAGE_ERROR_CODES, UnavailableError, describeValue, invalidArgument, requireInteger, type PackageErrorCode } from './errors.js';
