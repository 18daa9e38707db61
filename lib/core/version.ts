// "major.minor.patch" version strings as manifests write them (file_format_version, api_version).

export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** Strict: three unsigned decimal numbers joined by dots, surrounding whitespace ignored. */
export function parseVersion(text: string): { ok: true; version: Version } | { ok: false; reason: string } {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(text.trim());
  if (!m) return { ok: false, reason: `"${text}" is not a major.minor.patch version` };
  return { ok: true, version: { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } };
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

export function formatVersion(v: Version): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}
