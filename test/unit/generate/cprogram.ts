// Helpers for the generator tests: compile C/C++ sources with the system compilers and run
// small programs that print "key value" lines (struct sizes, member offsets, constant values).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface RunResult {
  readonly ok: boolean;
  readonly output: string;
}

export function run(command: string, args: readonly string[], cwd?: string): RunResult {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error !== undefined) return { ok: false, output: String(r.error) };
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** True when the compiler answers `--version`. */
export function hasCompiler(command: string): boolean {
  return run(command, ['--version']).ok;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface LayoutProbe {
  /** Struct or union name and the member names to report offsets of. */
  readonly structs: readonly { readonly name: string; readonly members: readonly string[] }[];
  /** C expressions printed as unsigned 64-bit integers (enum values, constants, sizeof). */
  readonly values: readonly string[];
}

/** A C program that prints `sizeof`, `offsetof` and the values of a probe, one per line. */
export function layoutProgram(includes: readonly string[], probe: LayoutProbe): string {
  const lines = ['#include <stddef.h>', '#include <stdio.h>', ...includes.map((i) => `#include ${i}`), ''];
  lines.push('int main(void) {');
  for (const s of probe.structs) {
    lines.push(`    printf("sizeof(${s.name}) %zu\\n", sizeof(${s.name}));`);
    for (const m of s.members) {
      lines.push(`    printf("offsetof(${s.name}, ${m}) %zu\\n", offsetof(${s.name}, ${m}));`);
    }
  }
  for (const v of probe.values) {
    lines.push(`    printf("%s %llu\\n", "${v}", (unsigned long long)(${v}));`);
  }
  lines.push('    return 0;', '}', '');
  return lines.join('\n');
}

/** Compiles and runs a C program; returns its "key value" lines as a map. */
export function runCProgram(dir: string, name: string, source: string, includeDirs: readonly string[]): Map<string, string> {
  const src = path.join(dir, `${name}.c`);
  const exe = path.join(dir, name);
  writeFileSync(src, source);
  const built = run('gcc', ['-std=c99', '-O0', ...includeDirs.map((d) => `-I${d}`), '-o', exe, src]);
  if (!built.ok) throw new Error(`compiling ${name} failed:\n${built.output}`);
  const ran = run(exe, []);
  if (!ran.ok) throw new Error(`running ${name} failed:\n${ran.output}`);
  const out = new Map<string, string>();
  for (const line of ran.output.split('\n')) {
    const at = line.lastIndexOf(' ');
    if (at > 0) out.set(line.slice(0, at), line.slice(at + 1));
  }
  return out;
}
