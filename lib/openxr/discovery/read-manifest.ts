// Reading a manifest file through the platform, turning every failure into a diagnostic.
import type { DiscoveryContext } from './context.js';
import type { Diagnostic } from './diagnostics.js';

export function readManifestBytes(ctx: DiscoveryContext, file: string): { data: Uint8Array } | { error: Diagnostic } {
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
