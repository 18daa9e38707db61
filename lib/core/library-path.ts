// Where a manifest's library_path points (XR-RD-5 / XR-LM-4; Vulkan's library_path alike).
//  - no directory separator ('/' or '\', on every OS, as the Khronos loader checks): a bare file
//    name, left to the system library search (dlopen / LoadLibrary);
//  - an absolute path: used as is;
//  - otherwise relative to the manifest's folder.
import { pathOps, type Platform } from './platform/platform.js';

export type LibraryPathKind = 'absolute' | 'relative' | 'bare';

export interface ResolvedLibraryPath {
  readonly kind: LibraryPathKind;
  /** The path the native side will open (for 'bare', the name as written). */
  readonly path: string;
  /** As written in the manifest. */
  readonly inManifest: string;
  /** Whether the file exists; undefined for 'bare' (the system search decides). */
  readonly exists: boolean | undefined;
}

/**
 * `manifestDir` is the folder relative paths start from: for runtimes the Khronos loader uses the
 * manifest's canonical (symlink-resolved) location, for layers the location it was found at.
 */
export function resolveLibraryPath(platform: Platform, manifestDir: string, libraryPath: string): ResolvedLibraryPath {
  const p = pathOps(platform);
  if (!libraryPath.includes('/') && !libraryPath.includes('\\')) {
    return { kind: 'bare', path: libraryPath, inManifest: libraryPath, exists: undefined };
  }
  const absolute = p.isAbsolute(libraryPath);
  // Joined as the Khronos loader does (parent + separator + child, not normalised), so that
  // '..' is resolved by the kernel through symlinks, exactly as dlopen will see it.
  const full = absolute ? libraryPath : manifestDir.endsWith(p.sep) ? manifestDir + libraryPath : manifestDir + p.sep + libraryPath;
  const st = platform.fs.stat(full);
  return { kind: absolute ? 'absolute' : 'relative', path: full, inManifest: libraryPath, exists: st !== undefined };
}
