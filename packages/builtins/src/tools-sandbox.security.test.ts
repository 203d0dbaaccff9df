import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { SandboxEnvironment } from '@toolgate/environment';
import {
  giveToSandboxUser,
  type LocalServer,
  makeWorld,
  processesWithArgument,
  sandboxSkipReason,
  startServer,
  type TempWorld,
} from '@toolgate/environment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from './builtin-tools.js';
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
      giveToSandboxUser(world.root);
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

    it('refuses write_file to .git/config and .envrc, naming protectedPaths, and shell cannot plant them', async () => {
      for (const path of ['.git/config', '.envrc', '.vscode/tasks.json']) {
        const refused = await agent.callTool('write_file', { path, content: 'planted' });
        expect(refused).toMatchObject({
          isError: true,
          error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('protectedPaths') },
        });
      }
      const shell = outputOf(
        await agent.callTool('shell', { command: 'mkdir -p .git/hooks; echo x > .envrc; echo ok' }),
      );
      expect(shell.stdout).toBe('ok\n');
      expect(shell.stderr).toMatch(/Read-only file system|Is a directory/);
      expect(existsSync(join(world.root, '.envrc'))).toBe(false);
      expect(existsSync(join(world.root, '.git'))).toBe(false);
    });

    it('runs shell as no root user, and reports the limit a fork bomb ran into, then answers', async () => {
      const limited = builtinAgent(new SandboxEnvironment({ root: world.root, limits: { processes: 64 } }));
      const who = outputOf(await limited.callTool('shell', { command: 'id -u' }));
      expect(who.stdout).not.toBe('0\n');
      // A function definition is not a line toolgate's parser reads, so the bomb runs from a script.
      writeFileSync(join(world.root, 'bomb.sh'), 'bomb() { bomb | bomb & }; bomb; sleep 1\n');
      const bomb = outputOf(await limited.callTool('shell', { command: 'sh bomb.sh' }));
      expect(bomb.limit).toMatchObject({ name: 'processes', value: 64 });
      expect(bomb.limit.message).toContain('limits.processes');
      expect(outputOf(await limited.callTool('shell', { command: 'echo answered' })).stdout).toBe(
        'answered\n',
      );
    }, 90_000);

    it("hands the shell call's id to the egress judge of a network 'policy' sandbox, which refuses", async () => {
      const asked: Array<{ host: string; callId: string | undefined }> = [];
      const egress = builtinAgent(
        new SandboxEnvironment({
          root: world.root,
          network: 'policy',
          allowHosts: ['127.0.0.1'],
          egressJudge: ({ host, callId }) => {
            asked.push({ host, callId });
            return false;
          },
        }),
      );
      const before = server.requests.length;
      const output = outputOf(await egress.callTool('shell', { command: `curl -sS ${server.origin}/` }));
      expect(output.stdout).toContain('egress proxy refused 127.0.0.1');
      expect(server.requests.length).toBe(before);
      expect(asked).toEqual([{ host: '127.0.0.1', callId: expect.stringMatching(/.+/) }]);
    });

    it("judges a sandboxed command's destinations by the call's own hosts policy, and records each answer", async () => {
      const decided: Array<{ callId: string; decision: string; reason: string }> = [];
      const environment = new SandboxEnvironment({
        root: world.root,
        network: 'policy',
        lookup: async () => [{ address: '127.0.0.1', family: 4 }],
        allowHosts: [`allowed.test:${server.port}`, `denied.test:${server.port}`],
        egressJudge: () => true,
      });
      const registry = new ToolRegistry();
      for (const tool of builtinTools(environment)) registry.register(tool);
      const gate = new ToolGate(registry, {
        policy: new RulePolicy({
          default: 'allow',
          rules: [{ tools: ['shell'], hosts: ['denied.test'], decision: 'deny', reason: 'no exfiltration' }],
        }),
        recorder: {
          toolCalled() {},
          policyDecided: (record) => void decided.push(record),
          toolReturned() {},
        },
      });
      const shell = gate.forAgent({ name: 'egress', tools: ['shell'] });
      const before = server.requests.length;
      const reached = outputOf(
        await shell.callTool('shell', { command: `curl -sS http://allowed.test:${server.port}/` }),
      );
      expect(reached.stdout).toBe('internal');
      expect(server.requests.length).toBe(before + 1);
      const refused = outputOf(
        await shell.callTool('shell', { command: `curl -sS http://denied.test:${server.port}/` }),
      );
      expect(refused.stdout).toContain('egress proxy refused denied.test');
      expect(server.requests.length).toBe(before + 1);
      const denial = decided.find((record) => record.decision === 'deny');
      expect(denial).toMatchObject({ reason: expect.stringContaining('denied.test') });
      expect(decided.filter((record) => record.callId === denial?.callId)).toHaveLength(2);
    }, 90_000);
  },
);
