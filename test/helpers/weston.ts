// A private Wayland compositor for window-system tests: Debian's weston with its headless backend
// (no display, no input), on a socket of its own in a temporary XDG_RUNTIME_DIR (mode 700), polled
// until a client connects, stopped after. No compositor of the machine is used.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until } from './until.js';
import { missingSystemComponent } from './system.js';

const WESTON = '/usr/bin/weston';

/** Where Debian puts weston's headless backend: /usr/lib/<multiarch>/libweston-<major>/ (the major changes with weston's version). */
function headlessBackends(): string[] {
  const found: string[] = [];
  for (const lib of ['/usr/lib', '/usr/lib64']) {
    const dirs = existsSync(lib) ? readdirSync(lib) : [];
    for (const dir of dirs) {
      const under = path.join(lib, dir);
      const names = /^libweston-\d+$/.test(dir) ? [''] : dir.endsWith('-linux-gnu') ? readdirSync(under).filter((n) => /^libweston-\d+$/.test(n)) : [];
      for (const n of names) found.push(path.join(under, n, 'headless-backend.so'));
    }
  }
  return found.length > 0 ? found : ['/usr/lib/<multiarch>/libweston-<major>/headless-backend.so'];
}

export const missingWeston = (): string | null =>
  missingSystemComponent({ 'weston (weston)': [WESTON], 'weston headless backend (weston)': headlessBackends() });

export interface Weston {
  /** The compositor's socket, an absolute path (wl_display_connect takes it as is). */
  readonly socket: string;
  stop(): Promise<void>;
}

/** Resolves true when a client connects to the unix socket at `socketPath`, false when it is refused. */
function accepts(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts weston (headless backend, pixman renderer, no configuration file, never idle) and waits until a client connects. */
export async function startWeston(): Promise<Weston> {
  const runtimeDir = mkdtempSync(path.join(tmpdir(), 'kl-weston-')); // mkdtemp makes it 0700, as XDG_RUNTIME_DIR must be
  const name = `kl-wayland-${process.pid}-${Date.now()}`;
  const socket = path.join(runtimeDir, name);
  const child: ChildProcess = spawn(WESTON, ['--backend=headless-backend.so', '--use-pixman', '--no-config', '--idle-time=0', `--socket=${name}`], {
    stdio: 'ignore',
    env: { ...process.env, XDG_RUNTIME_DIR: runtimeDir, WAYLAND_DISPLAY: undefined, DISPLAY: undefined },
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  await until(`weston's socket ${socket}`, () => exited || existsSync(socket), 20_000);
  let connected = false;
  const deadline = performance.now() + 20_000;
  while (!exited && !connected) {
    connected = await accepts(socket);
    if (!connected && performance.now() > deadline) throw new Error(`timed out after 20000 ms waiting for weston to accept a client on ${socket}`);
  }
  if (exited) throw new Error(`weston exited before it accepted a client on ${socket}`);
  return {
    socket,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await until(`weston on ${socket} to exit`, () => exited, 10_000);
      }
      rmSync(runtimeDir, { recursive: true, force: true });
    },
  };
}
