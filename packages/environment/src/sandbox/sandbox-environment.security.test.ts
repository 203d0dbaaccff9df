import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  giveToSandboxUser,
  type LocalServer,
  makeWorld,
  processesWithArgument,
  sandboxSkipReason,
  startServer,
  type TempWorld,
} from '../testing/index.js';
import { SandboxEnvironment } from './sandbox-environment.js';

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
  giveToSandboxUser(world.root);
});
afterEach(() => world.cleanup());

async function until(condition: () => boolean, withinMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

const unique = () => `${3000 + Math.floor(Math.random() * 1000)}.${Math.floor(Math.random() * 1e6)}`;

/** A script the sandboxed node runs: it prints `reached` if it can fetch the URL, else `failed`. */
const probe = `require('http').get(process.argv[2], (r) => { console.log('reached', r.statusCode); r.resume(); })
  .on('error', (e) => { console.log('failed', e.code); process.exitCode = 7; });`;

describe.skipIf(process.platform !== 'linux')('SandboxEnvironment construction', () => {
  it('fails with what to install when bubblewrap is missing, never falling back', () => {
    expect(
      () => new SandboxEnvironment({ root: world.root, bubblewrapPath: join(world.base, 'no-bwrap') }),
    ).toThrow(
      expect.objectContaining({
        code: 'COMMAND_FAILED',
        message: expect.stringMatching(/bubblewrap is not installed.*apt-get install bubblewrap/s),
      }),
    );
  });

  it('fails with the reason when bubblewrap cannot create namespaces', () => {
    const failing = join(world.base, 'bwrap-no-namespaces');
    writeFileSync(failing, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    chmodSync(failing, 0o755);
    expect(() => new SandboxEnvironment({ root: world.root, bubblewrapPath: failing })).toThrow(
      expect.objectContaining({
        code: 'COMMAND_FAILED',
        message: expect.stringMatching(
          /could not create the sandbox: bwrap: No permissions.*user namespaces/s,
        ),
      }),
    );
  });
});

describe.skipIf(sandboxSkipReason() !== undefined)('SandboxEnvironment under attack', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer((_request, response) => response.end('internal'));
  });
  afterAll(() => server.close());

  it('shows no /etc/passwd, /root or /home to a command', async () => {
    const environment = new SandboxEnvironment({ root: world.root });
    const result = await environment.exec('cat /etc/passwd; ls /root; ls /home; ls /etc');
    expect(result.stdout).not.toContain('root:');
    expect(result.stderr).toContain('/etc/passwd: No such file or directory');
    expect(result.stderr).toContain("'/root': No such file or directory");
    expect(result.stderr).toContain("'/home': No such file or directory");
    expect(readFileSync('/etc/passwd', 'utf8')).toContain('root:');
  });

  it('lets a command write the workspace and nothing else on the host', async () => {
    const environment = new SandboxEnvironment({ root: world.root });
    const tag = unique();
    const result = await environment.exec(
      `echo in > inside.txt; echo out > ${world.outside}/pwned.txt; echo usr > /usr/pwned-${tag}; ` +
        `echo tmp > /tmp/pwned-${tag}; cat /tmp/pwned-${tag}`,
    );
    expect(readFileSync(join(world.root, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(existsSync(join(world.outside, 'pwned.txt'))).toBe(false);
    expect(existsSync(`/usr/pwned-${tag}`)).toBe(false);
    // The sandbox's /tmp is its own: the write works inside and never reaches the host's /tmp.
    expect(result.stdout).toBe('tmp\n');
    expect(existsSync(`/tmp/pwned-${tag}`)).toBe(false);
  });

  it('cannot reach a server on 127.0.0.1 unless the network is allowed', async () => {
    writeFileSync(join(world.root, 'probe.cjs'), probe);
    const command = `"${process.execPath}" probe.cjs ${server.origin}/`;
    const before = server.requests.length;
    const denied = await new SandboxEnvironment({ root: world.root }).exec(command);
    expect(denied.stdout).toMatch(/^failed /);
    expect(server.requests.length).toBe(before);
    // The same probe with the network allowed gets through: the probe would see a leak.
    const allowed = await new SandboxEnvironment({ root: world.root, allowNetwork: true }).exec(command);
    expect(allowed.stdout).toBe('reached 200\n');
    expect(server.requests.length).toBe(before + 1);
  });

  it('leaves no process behind, not even one that left its session and cleared its environment', async () => {
    const environment = new SandboxEnvironment({ root: world.root });
    const cleared = unique();
    const daemon = unique();
    const call = environment.exec(
      `setsid env -i sh -c 'exec sleep ${cleared}' & ` +
        `setsid sh -c 'exec sleep ${daemon}' </dev/null >/dev/null 2>&1 & sleep 300`,
      { timeoutMs: 10_000 },
    );
    // While the call runs, both are found: the check below would see them if they survived.
    expect(
      await until(
        () => processesWithArgument(cleared).length > 0 && processesWithArgument(daemon).length > 0,
      ),
    ).toBe(true);
    expect(await call).toMatchObject({ timedOut: true, exitCode: null });
    expect(await until(() => processesWithArgument(cleared).length === 0)).toBe(true);
    expect(await until(() => processesWithArgument(daemon).length === 0)).toBe(true);
  }, 90_000);

  it('shows readOnlyPaths read-only, even under the host /tmp', async () => {
    const tools = join(world.base, 'tools');
    mkdirSync(tools);
    writeFileSync(join(tools, 'tool.txt'), 'a tool\n');
    const environment = new SandboxEnvironment({ root: world.root, readOnlyPaths: [tools] });
    const result = await environment.exec(`cat ${tools}/tool.txt; echo x > ${tools}/pwned.txt`);
    expect(result.stdout).toBe('a tool\n');
    expect(result.exitCode).not.toBe(0);
    expect(existsSync(join(tools, 'pwned.txt'))).toBe(false);
  });

  it('keeps the file operations confined to the root', async () => {
    const environment = new SandboxEnvironment({ root: world.root });
    await expect(environment.readFile('../outside/secret.txt')).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT',
    });
    await expect(environment.readFile('/etc/passwd')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_ROOT' });
    expect((await environment.readFile('README.md')).content).toContain('# moss');
  });
});
