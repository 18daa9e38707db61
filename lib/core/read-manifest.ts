// Reading a manifest file through the platform, turning every failure into a diagnostic:
// missing, a broken symlink or loop, a directory or special file, unreadable, too large.
import type { Platform } from './platform/platform.js';
import type { Diagnostic } from './diagnostics.js';

export interface ManifestReadContext {
  readonly platform: Platform;
  /** Larger files are rejected (the read is capped, so a huge file is never loaded whole). */
  readonly maxManifestBytes: number;
}

export function readManifestBytes(ctx: ManifestReadContext, file: string): { data: Uint8Array } | { error: Diagnostic<never> } {
  const st = ctx.platform.fs.stat(file);
  if (st === undefined) {
    const why = ctx.platform.fs.realpath(file) === undefined ? 'does not exist (or is a broken symlink or a symlink loop)' : 'cannot be read';
    return { error: { severity: 'error', file, reason: `the file ${why}` } };
  }
  if (st.kind !== 'file') return { error: { severity: 'error', file, reason: `is a ${st.kind === 'directory' ? 'directory' : 'special file'}, not a manifest file` } };
  const r = ctx.platform.fs.readFile(file, ctx.maxManifestBytes);
  if ('error' in r) return { error: { severity: 'error', file, reason: `cannot be read: ${r.error}` } };
  return { data: r.data };
}
