import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The built `toolgate-ledger` command. */
export const ledgerCli = join(root, 'bin', 'toolgate-ledger.js');
/** Debian's chromium, which CI installs (.ci/run). */
export const chromiumPath = '/usr/bin/chromium';
/** Launch flags that work as root on these machines (TOOLCHAIN.md). */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * Skipped only off CI, on a machine without Debian's chromium (apt-get install -y chromium); CI
 * installs it (.ci/run) and with CI=true a missing browser fails the launch instead.
 */
export const skipBrowser = !existsSync(chromiumPath) && process.env.CI !== 'true';

/** Throws unless the viewer page is built (the served page is the bundle in dist/). */
export function requirePageBuilt(): void {
  if (!existsSync(join(root, 'dist', 'viewer', 'page', 'main.js'))) {
    throw new Error('the viewer page is not built: run pnpm build in packages/ledger first');
  }
}

/** A running `toolgate-ledger serve`. */
export interface ServedLedger {
  readonly url: string;
  readonly child: ChildProcess;
}

/**
 * Starts `toolgate-ledger serve FILE [options…]` as a child process (pushed to `children`); resolves
 * once it prints its URL.
 */
export function serveChild(
  path: string,
  children: ChildProcess[],
  options: readonly string[] = [],
): Promise<ServedLedger> {
  const child = spawn(process.execPath, [ledgerCli, 'serve', path, '--port', '0', ...options], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stderr!.on('data', (chunk) => {
    output += String(chunk);
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += String(chunk);
      const url = /at (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}
