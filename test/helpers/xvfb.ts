// A private X server for window-system tests: Debian's Xvfb on the first free display number,
// polled (xdpyinfo) until it accepts clients, stopped after. No window system on the machine is used.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { until } from './until.js';
import { missingSystemComponent } from './system.js';

export const missingXvfb = (): string | null =>
  missingSystemComponent({ 'Xvfb (xvfb)': ['/usr/bin/Xvfb'], 'xdpyinfo (x11-utils)': ['/usr/bin/xdpyinfo'] });

export interface Xvfb {
  /** ":<n>", for XOpenDisplay / xcb_connect. */
  readonly display: string;
  stop(): Promise<void>;
}

function freeDisplayNumber(): number {
  for (let n = 90; n < 400; ++n) {
    if (!existsSync(`/tmp/.X${n}-lock`) && !existsSync(`/tmp/.X11-unix/X${n}`)) return n;
  }
  throw new Error('Xvfb: no free display number between :90 and :399');
}

function accepts(display: string): boolean {
  return spawnSync('/usr/bin/xdpyinfo', ['-display', display], { stdio: 'ignore', timeout: 5_000 }).status === 0;
}

/** Starts Xvfb (24-bit TrueColor screen) and waits until it accepts clients. */
export async function startXvfb(): Promise<Xvfb> {
  const n = freeDisplayNumber();
  const display = `:${n}`;
  const child: ChildProcess = spawn('/usr/bin/Xvfb', [display, '-screen', '0', '320x240x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  await until(`Xvfb ${display} to accept clients`, () => exited || accepts(display), 20_000);
  if (exited) throw new Error(`Xvfb ${display} exited before it accepted a client`);
  return {
    display,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      await until(`Xvfb ${display} to exit`, () => exited, 10_000);
    },
  };
}
