// Running Windows programs under wine (Debian wine64) for scripts/test-platforms.ts: a prefix of
// our own (Windows 10, which node.exe requires), and stdout/stderr through files — the Windows
// Node cannot write to the pipes wine hands it (EBADF in createWritableStdioStream).
// A prefix is made once, whole, in a temporary folder renamed into place when wine has finished
// with it, so processes that start at the same time never share a half-made one.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The path as a Windows program under wine sees it: wine's Z: drive is the Unix root. */
export function windowsPath(unixPath: string): string {
  return `Z:${path.resolve(unixPath).replace(/\//g, '\\')}`;
}

export interface Wine {
  /** Runs a Windows program (`env`: variables added for it); its stdout, or an Error with its exit status and output. */
  run(args: readonly string[], cwd: string, env?: Readonly<Record<string, string>>): string;
  /** wine's reg.exe (add, delete, query); `mayFail` for a delete of what may not be there. */
  reg(args: readonly string[], mayFail?: boolean): void;
}

function wineBinary(): string {
  const onPath = ['wine64', 'wine'].find((c) => spawnSync('sh', ['-c', `command -v ${c}`]).status === 0);
  if (onPath !== undefined) return onPath;
  if (existsSync('/usr/lib/wine/wine64')) return '/usr/lib/wine/wine64';
  throw new Error('wine is missing (Debian: apt-get install wine64)');
}

function wineserverBinary(command: string): string {
  const beside = path.join(path.dirname(command), command.endsWith('64') ? 'wineserver64' : 'wineserver');
  if (existsSync(beside)) return beside;
  const onPath = spawnSync('sh', ['-c', 'command -v wineserver'], { encoding: 'utf8' });
  if (onPath.status === 0) return onPath.stdout.trim();
  if (existsSync('/usr/lib/wine/wineserver64')) return '/usr/lib/wine/wineserver64';
  throw new Error('wineserver is missing (Debian: apt-get install wine64)');
}

/** Written last into a finished prefix: a folder without it is half made (an older run's) and is rebuilt. */
const READY = '.khronos-loader-ready';

export function createWine(prefix: string): Wine {
  const command = wineBinary();
  // Only what wine needs from this environment: the loaders' own variables (XR_*, VK_*) of the
  // Linux session must not leak into the Windows processes' environment.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
  };
  const runRaw = (args: readonly string[], cwd: string, extra: Readonly<Record<string, string>> = {}): { status: number | null; stdout: string; stderr: string } => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kl-wine-'));
    const outFile = path.join(dir, 'stdout');
    const errFile = path.join(dir, 'stderr');
    const out = openSync(outFile, 'w');
    const err = openSync(errFile, 'w');
    try {
      const result = spawnSync(command, args, { cwd, env: { ...env, ...extra }, stdio: ['ignore', out, err], timeout: 10 * 60 * 1000 });
      return { status: result.status, stdout: readFileSync(outFile, 'utf8'), stderr: readFileSync(errFile, 'utf8') };
    } finally {
      closeSync(out);
      closeSync(err);
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const mustRun = (args: readonly string[], cwd: string, extra?: Readonly<Record<string, string>>): string => {
    const result = runRaw(args, cwd, extra);
    if (result.status !== 0) throw new Error(`wine ${args.join(' ')} exited ${result.status}:\n${(result.stdout + result.stderr).slice(-4000)}`);
    return result.stdout;
  };
  if (!existsSync(path.join(prefix, READY))) makePrefix(prefix, command, env);
  return {
    run: mustRun,
    reg(args, mayFail = false) {
      const result = runRaw(['reg', ...args], os.tmpdir());
      if (result.status !== 0 && !mayFail) throw new Error(`wine reg ${args.join(' ')} exited ${result.status}:\n${result.stdout}${result.stderr}`);
    },
  };
}

/**
 * Makes `prefix` whole in a sibling temporary folder (wineboot, Windows 10 — a new prefix reports
 * Windows 7, where node.exe refuses to start — then wineserver -w, so nothing is still writing it),
 * marks it ready and renames it into place. When another process got there first, its prefix is
 * used and this one removed.
 */
function makePrefix(prefix: string, command: string, env: NodeJS.ProcessEnv): void {
  const parent = path.dirname(prefix);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(`${prefix}.making-`);
  const stagingEnv = { ...env, WINEPREFIX: staging };
  const run = (program: string, args: readonly string[]): void => {
    const r = spawnSync(program, args, { cwd: os.tmpdir(), env: stagingEnv, encoding: 'utf8', timeout: 10 * 60 * 1000 });
    if (r.status !== 0) throw new Error(`making the wine prefix ${prefix}: ${[program, ...args].join(' ')} exited ${r.status}:\n${(r.stdout + r.stderr).slice(-4000)}`);
  };
  try {
    run(command, ['wineboot', '--init']);
    run(command, ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f']);
    run(wineserverBinary(command), ['-w']);
    writeFileSync(path.join(staging, READY), '');
    if (existsSync(prefix) && !existsSync(path.join(prefix, READY))) rmSync(prefix, { recursive: true, force: true });
    try {
      renameSync(staging, prefix);
    } catch (error) {
      // Another process renamed its finished prefix into place first: use that one.
      if (!existsSync(path.join(prefix, READY))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
