import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxEnvironment } from '@toolgate/environment';
import {
  type LocalServer,
  makeWorld,
  processesWithArgument,
  sandboxSkipReason,
  startServer,
  type TempWorld,
} from '@toolgate/environment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgent, codeOf, outputOf } from './testing-fixtures/agent.js';

async function until(condition: () => boolean, withinMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

const unique = () => `${3000 + Math.floor(Math.random() * 1000)}.${Math.floor(Math.random() * 1e6)}`;

describe.skipIf(sandboxSkipReason() !== undefined)(
  'the built-in tools over SandboxEnvironment, attacked',
  () => {
    let world: TempWorld;
    let server: LocalServer;
    let agent: ReturnType<typeof builtinAgent>;
    beforeAll(async () => {
      world = makeWorld();
      server = await startServer((_request, response) => response.end('internal'));
      agent = builtinAgent(new SandboxEnvironment({ root: world.root }));
    });
    afterAll(async () => {
      await server.close();
      world.cleanup();
    });

    it('refuses /etc/passwd to read_file and shows none to shell', async () => {
      expect(codeOf(await agent.callTool('read_file', { path: '/etc/passwd' }))).toBe('PATH_OUTSIDE_ROOT');
      expect(codeOf(await agent.callTool('read_file', { path: '../../../../etc/passwd' }))).toBe(
        'PATH_OUTSIDE_ROOT',
      );
      const shell = outputOf(await agent.callTool('shell', { command: 'cat /etc/passwd' }));
      expect(shell.exitCode).not.toBe(0);
      expect(shell.stdout).not.toContain('root:');
    });

    it('writes nothing outside the root, by write_file or by shell', async () => {
      expect(codeOf(await agent.callTool('write_file', { path: '../outside/pwned.txt', content: 'x' }))).toBe(
        'PATH_OUTSIDE_ROOT',
      );
      const tag = unique();
      await agent.callTool('shell', {
        command: `echo x > ${world.outside}/pwned.txt; echo x > /tmp/pwned-${tag}; echo x > /usr/pwned-${tag}; echo in > in.txt`,
      });
      expect(existsSync(join(world.outside, 'pwned.txt'))).toBe(false);
      expect(existsSync(`/tmp/pwned-${tag}`)).toBe(false);
      expect(existsSync(`/usr/pwned-${tag}`)).toBe(false);
      expect(readFileSync(join(world.root, 'in.txt'), 'utf8')).toBe('in\n');
    });

    it('cannot reach 127.0.0.1 from shell', async () => {
      writeFileSync(
        join(world.root, 'probe.cjs'),
        "require('http').get(process.argv[2], (r) => console.log('reached', r.statusCode)).on('error', (e) => console.log('failed', e.code));",
      );
      const before = server.requests.length;
      const output = outputOf(
        await agent.callTool('shell', { command: `"${process.execPath}" probe.cjs ${server.origin}/` }),
      );
      expect(output.stdout).toMatch(/^failed /);
      expect(server.requests.length).toBe(before);
    });

    it('leaves no background process behind once the call returns', async () => {
      const cleared = unique();
      const daemon = unique();
      const call = agent.callTool('shell', {
        command:
          `setsid env -i sh -c 'exec sleep ${cleared}' & ` +
          `setsid sh -c 'exec sleep ${daemon}' </dev/null >/dev/null 2>&1 & sleep 5; echo started`,
      });
      // While the call runs, both are found: the checks below would see them if they survived.
      expect(
        await until(
          () => processesWithArgument(cleared).length > 0 && processesWithArgument(daemon).length > 0,
        ),
      ).toBe(true);
      const output = outputOf(await call);
      expect(output).toMatchObject({ exitCode: 0, stdout: 'started\n' });
      expect(await until(() => processesWithArgument(cleared).length === 0)).toBe(true);
      expect(await until(() => processesWithArgument(daemon).length === 0)).toBe(true);
    }, 90_000);
  },
);
