// A private X server for the presentation rows of `bench vulkan` (vkAcquireNextImageKHR,
// vkQueuePresentKHR): Debian's Xvfb, started with -displayfd so that it picks a free display
// number itself and writes it back once it accepts clients, stopped after the rows. No window
// system of the machine's is used.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { UnavailableError } from '../../core/errors.js';

export const XVFB_CANDIDATES: readonly string[] = ['/usr/bin/Xvfb'];

/** The Xvfb binary, or undefined when it is not installed. */
export function findXvfb(): string | undefined {
  return XVFB_CANDIDATES.find((p) => existsSync(p));
}

export interface XvfbServer {
  /** ":<n>", for xcb_connect (the children's window). */
  readonly display: string;
  stop(): Promise<void>;
}

/**
 * Starts `xvfb` on a free display (a 24-bit TrueColor screen, no TCP) and resolves once it has
 * said which display it listens on; rejects with UnavailableError when it exits first or says
 * nothing within `timeoutMs`.
 */
export function startXvfb(xvfb: string, timeoutMs = 20_000): Promise<XvfbServer> {
  const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '320x240x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 2000) stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  const stop = async (): Promise<void> => {
    if (!running) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise<XvfbServer>((resolve, reject) => {
    let said = '';
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() => reject(new UnavailableError(`Xvfb (${xvfb}) ${why}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' / ')}` : ''}`)));
    };
    const timer = setTimeout(() => fail(`named no display within ${timeoutMs} ms`), timeoutMs);
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    void exited.then(() => fail('exited before it named its display'));
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const line = /^(\d+)\n/.exec(said);
      if (line === null || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ display: `:${line[1]}`, stop });
    });
  });
}
