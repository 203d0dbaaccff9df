#!/usr/bin/env node
// Runs turbo (the root scripts' `build`, `test`, `typecheck`, …) with `pnpm` certainly on PATH.
//
// turbo looks the package manager named in package.json's "packageManager" up on PATH by name and,
// when it is not there, fails before running anything: "Unable to find package manager binary:
// cannot find binary path". That happens when pnpm was started some other way than as a `pnpm` on
// PATH (`node …/pnpm.cjs`, `npx pnpm`, `corepack pnpm`, a PATH a tool trimmed) — reproduced with
// `env PATH=<node only> node …/pnpm.cjs run build`. pnpm tells the scripts it runs where it is
// (npm_execpath), so when no `pnpm` is on PATH this puts a two-line shim that runs that same pnpm
// first on turbo's PATH, and says so.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const path = process.env.PATH ?? '';
const env = { ...process.env };
if (!path.split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, 'pnpm')))) {
  const pnpm = process.env.npm_execpath;
  if (!pnpm || !existsSync(pnpm)) {
    process.stderr.write(
      'turbo needs pnpm on PATH and none is there; install it (npm install -g pnpm@10.34.8) and run this through pnpm\n',
    );
    process.exit(1);
  }
  const shims = join(root, 'node_modules', '.cache', 'toolgate-pnpm-shim');
  mkdirSync(shims, { recursive: true });
  const shim = join(shims, 'pnpm');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(pnpm)} "$@"\n`);
  chmodSync(shim, 0o755);
  env.PATH = `${shims}${delimiter}${path}`;
  process.stderr.write(`::: no pnpm on PATH; turbo runs ${pnpm} through ${shim}\n`);
}
const result = spawnSync(join(root, 'node_modules', '.bin', 'turbo'), process.argv.slice(2), {
  stdio: 'inherit',
  env,
});
if (result.error) throw result.error;
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
