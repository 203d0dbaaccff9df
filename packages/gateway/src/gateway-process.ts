import { readFile, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { messageOf, ToolgateError } from '@toolgate/core';

const packageName = '@toolgate/gateway';

/**
 * Checks that `pid` is a running `toolgate-gateway` before `approve --pid` signals it: a positive
 * pid (0 and negatives would signal a process group), a live process, and a command line whose
 * script is this package's command (`bin/toolgate-gateway.js` or `dist/cli.js` of a package named
 * `@toolgate/gateway`, however it was linked). Read from `/proc`; where there is none, the check
 * cannot be made and the pid is refused. Throws INVALID_DEFINITION saying which check failed.
 */
export async function checkGatewayProcess(pid: number): Promise<void> {
  if (!Number.isSafeInteger(pid) || pid < 1) {
    throw refusal(pid, 'a process id is a whole number from 1 (0 and negatives name process groups)');
  }
  let argv: string[];
  let cwd: string;
  try {
    argv = (await readFile(join('/proc', String(pid), 'cmdline'), 'utf8')).split('\0').filter(Boolean);
    cwd = await readlink(join('/proc', String(pid), 'cwd'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') throw refusal(pid, 'no such process is running');
    throw refusal(pid, `its command line cannot be read (${messageOf(error)})`);
  }
  if (argv.length === 0) throw refusal(pid, 'it has no command line (it has exited)');
  for (const argument of argv.slice(0, 2)) {
    if (await isGatewayScript(resolve(cwd, argument))) return;
  }
  throw refusal(pid, `it runs ${JSON.stringify(argv.slice(0, 2).join(' '))}, not toolgate-gateway`);
}

async function isGatewayScript(path: string): Promise<boolean> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return false;
  }
  for (let directory = dirname(real); ; directory = dirname(directory)) {
    const manifest = await readFile(join(directory, 'package.json'), 'utf8').catch(() => undefined);
    if (manifest !== undefined) {
      let parsed: { name?: unknown; bin?: unknown };
      try {
        parsed = JSON.parse(manifest) as typeof parsed;
      } catch {
        return false;
      }
      if (parsed.name !== packageName) return false;
      const bins = typeof parsed.bin === 'object' && parsed.bin !== null ? Object.values(parsed.bin) : [];
      const entries = [...bins, 'dist/cli.js'].map((entry) => resolve(directory, String(entry)));
      return entries.includes(real);
    }
    if (dirname(directory) === directory || basename(directory) === 'node_modules') return false;
  }
}

function refusal(pid: number, why: string): ToolgateError {
  return new ToolgateError(
    'INVALID_DEFINITION',
    `--pid ${pid} is not a running toolgate-gateway: ${why}; give the pid of the gateway to reload (e.g. from pgrep -f toolgate-gateway), or leave out --pid and send it SIGHUP yourself`,
  );
}
