// A private Wayland compositor for window-system tests: Debian's weston with its headless backend
// (no display, no input), on a socket of its own in a temporary XDG_RUNTIME_DIR (mode 700), polled
// until a client connects, stopped after. No compositor of the machine is used. Started with
// `screenshots`, weston runs with --debug, which lets weston-screenshooter (weston's own client of
// its screenshooter protocol) read the composited output back; the PNG it writes is decoded with
// cairo (weston's own dependency) into 0xRRGGBB pixels.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import koffi from 'koffi';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { until } from './until.js';
import { missingSystemComponent } from './system.js';

const WESTON = '/usr/bin/weston';
const SCREENSHOOTER = '/usr/bin/weston-screenshooter';
const LIBCAIRO = '/usr/lib/x86_64-linux-gnu/libcairo.so.2';

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

/** What reading the compositor's output back needs besides weston: its screenshooter client and cairo. */
export const missingWestonScreenshots = (): string | null =>
  missingWeston() ?? missingSystemComponent({ 'weston-screenshooter (weston)': [SCREENSHOOTER], 'libcairo (libcairo2)': [LIBCAIRO] });

/** The composited output: its size and each pixel as 0xRRGGBB. */
export interface Screenshot {
  readonly width: number;
  readonly height: number;
  pixel(x: number, y: number): number;
  /** How many pixels are exactly `rgb`. */
  count(rgb: number): number;
}

export interface Weston {
  /** The compositor's socket, an absolute path (wl_display_connect takes it as is). */
  readonly socket: string;
  /** The output as weston composited it (weston started with `screenshots`). */
  screenshot(): Screenshot;
  stop(): Promise<void>;
}

/** Decodes a PNG with cairo (CAIRO_FORMAT_ARGB32/RGB24: one native-endian 32-bit word a pixel). */
function readPng(file: string): Screenshot {
  const cairo = koffi.load(LIBCAIRO);
  const fromPng = cairo.func('void *cairo_image_surface_create_from_png(const char *file)');
  const status = cairo.func('int cairo_surface_status(void *surface)');
  const getData = cairo.func('void *cairo_image_surface_get_data(void *surface)');
  const getWidth = cairo.func('int cairo_image_surface_get_width(void *surface)');
  const getHeight = cairo.func('int cairo_image_surface_get_height(void *surface)');
  const getStride = cairo.func('int cairo_image_surface_get_stride(void *surface)');
  const destroy = cairo.func('void cairo_surface_destroy(void *surface)');
  const surface: unknown = fromPng(file);
  try {
    if (status(surface) !== 0) throw new Error(`cairo could not read the screenshot ${file} (status ${String(status(surface))})`);
    const width = getWidth(surface) as number;
    const height = getHeight(surface) as number;
    const stride = getStride(surface) as number;
    const words = koffi.decode(getData(surface), 'uint32_t', (stride / 4) * height) as number[];
    const pixels = new Uint32Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = words[y * (stride / 4) + x]! & 0xffffff;
    return {
      width,
      height,
      pixel: (x, y) => pixels[y * width + x]!,
      count: (rgb) => pixels.reduce((n, p) => n + Number(p === rgb), 0),
    };
  } finally {
    destroy(surface);
  }
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
export async function startWeston(options: { screenshots?: boolean } = {}): Promise<Weston> {
  const runtimeDir = mkdtempSync(path.join(tmpdir(), 'kl-weston-')); // mkdtemp makes it 0700, as XDG_RUNTIME_DIR must be
  const name = `kl-wayland-${process.pid}-${Date.now()}`;
  const socket = path.join(runtimeDir, name);
  const args = ['--backend=headless-backend.so', '--use-pixman', '--no-config', '--idle-time=0', `--socket=${name}`, ...(options.screenshots === true ? ['--debug'] : [])];
  const child: ChildProcess = spawn(WESTON, args, {
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
    screenshot() {
      // weston-screenshooter writes wayland-screenshot-<time>.png into its working directory.
      const shots = mkdtempSync(path.join(tmpdir(), 'kl-weston-shot-'));
      try {
        const r = spawnSync(SCREENSHOOTER, [], { cwd: shots, encoding: 'utf8', timeout: 20_000, env: { ...process.env, XDG_RUNTIME_DIR: runtimeDir, WAYLAND_DISPLAY: name } });
        const png = readdirSync(shots).find((f) => f.endsWith('.png'));
        if (r.status !== 0 || png === undefined) throw new Error(`weston-screenshooter failed (status ${String(r.status)}): ${r.stderr.trim()}`);
        return readPng(path.join(shots, png));
      } finally {
        rmSync(shots, { recursive: true, force: true });
      }
    },
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await until(`weston on ${socket} to exit`, () => exited, 10_000);
      }
      rmSync(runtimeDir, { recursive: true, force: true });
    },
  };
}
