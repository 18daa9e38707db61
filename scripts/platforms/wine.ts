// Running Windows programs under wine (Debian wine64) for scripts/test-platforms.ts: a prefix of
// our own (Windows 10, which node.exe requires), and stdout/stderr through files — the Windows
// Node cannot write to the pipes wine hands it (EBADF in createWritableStdioStream).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
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
  // A new prefix reports Windows 7, where node.exe refuses to start.
  if (!existsSync(path.join(prefix, 'system.reg'))) mustRun(['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], os.tmpdir());
  return {
    run: mustRun,
    reg(args, mayFail = false) {
      const result = runRaw(['reg', ...args], os.tmpdir());
      if (result.status !== 0 && !mayFail) throw new Error(`wine reg ${args.join(' ')} exited ${result.status}:\n${result.stdout}${result.stderr}`);
    },
  };
}
