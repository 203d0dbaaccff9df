import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  giveToSandboxUser,
  type LocalServer,
  makeWorld,
  processesWithArgument,
  sandboxSkipReason,
  sandboxTestUser,
  startServer,
  type TempWorld,
} from '@toolgate/environment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, run } from './testing-fixtures/cli.js';

async function until(condition: () => boolean, withinMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

const unique = () => `${3000 + Math.floor(Math.random() * 1000)}.${Math.floor(Math.random() * 1e6)}`;

interface Structured {
  isError?: boolean;
  structuredContent?: {
    code?: string;
    exitCode?: number | null;
    stdout?: string;
    stderr?: string;
    timedOut?: boolean;
    limit?: { name: string };
  };
  content?: Array<{ type: string; text?: string }>;
}

describe.skipIf(sandboxSkipReason() !== undefined)('toolgate-mcp --sandbox, attacked over MCP', () => {
  let world: TempWorld;
  let server: LocalServer;
  const clients: Client[] = [];
  const connect = async (...flags: string[]) => {
    const client = new Client({ name: 'attacker', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath(), '--tools', 'read_file,write_file,shell', '--root', world.root, ...flags],
        stderr: 'pipe',
      }),
    );
    clients.push(client);
    return client;
  };
  const shell = async (client: Client, command: string, timeoutMs?: number) =>
    (await client.callTool({
      name: 'shell',
      arguments: timeoutMs === undefined ? { command } : { command, timeoutMs },
    })) as Structured;
  let sandboxed: Client;

  beforeAll(async () => {
    world = makeWorld();
    giveToSandboxUser(world.root);
    server = await startServer((_request, response) => response.end('internal'));
    sandboxed = await connect('--sandbox');
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
    world.cleanup();
  });

  it('without --sandbox, --root does not confine shell (which is why --sandbox exists)', async () => {
    const unsandboxed = await connect();
    expect((await shell(unsandboxed, 'cat /etc/passwd')).structuredContent?.stdout).toContain('root:');
  });

  it('refuses /etc/passwd to read_file and shows none to shell', async () => {
    const read = (await sandboxed.callTool({
      name: 'read_file',
      arguments: { path: '/etc/passwd' },
    })) as Structured;
    expect(read).toMatchObject({ isError: true, structuredContent: { code: 'PATH_OUTSIDE_ROOT' } });
    const cat = await shell(sandboxed, 'cat /etc/passwd');
    expect(cat.structuredContent?.exitCode).not.toBe(0);
    expect(cat.structuredContent?.stdout).not.toContain('root:');
  });

  it('writes nothing outside the root', async () => {
    const tag = unique();
    await shell(
      sandboxed,
      `echo x > ${world.outside}/pwned.txt; echo x > /tmp/pwned-${tag}; echo in > in.txt`,
    );
    expect(existsSync(join(world.outside, 'pwned.txt'))).toBe(false);
    expect(existsSync(`/tmp/pwned-${tag}`)).toBe(false);
    expect(readFileSync(join(world.root, 'in.txt'), 'utf8')).toBe('in\n');
  });

  it('cannot reach 127.0.0.1', async () => {
    writeFileSync(
      join(world.root, 'probe.cjs'),
      "require('http').get(process.argv[2], (r) => console.log('reached', r.statusCode)).on('error', (e) => console.log('failed', e.code));",
    );
    const before = server.requests.length;
    const probe = await shell(sandboxed, `"${process.execPath}" probe.cjs ${server.origin}/`);
    expect(probe.structuredContent?.stdout).toMatch(/^failed /);
    expect(server.requests.length).toBe(before);
  });

  it('leaves no process behind after a call that timed out', async () => {
    const cleared = unique();
    const call = shell(sandboxed, `setsid env -i sh -c 'exec sleep ${cleared}' & sleep 300`, 10_000);
    expect(await until(() => processesWithArgument(cleared).length > 0)).toBe(true);
    expect((await call).structuredContent).toMatchObject({ timedOut: true, exitCode: null });
    expect(await until(() => processesWithArgument(cleared).length === 0)).toBe(true);
  }, 90_000);

  it('runs shell as no root user: /proc/sys/kernel/core_pattern does not open for writing', async () => {
    const probe = await shell(sandboxed, 'id -u; true >> /proc/sys/kernel/core_pattern && echo opened');
    expect(probe.structuredContent?.stdout).not.toMatch(/^0$|opened/m);
    expect(probe.structuredContent?.stderr).toMatch(
      /core_pattern: (Permission denied|Read-only file system)/,
    );
  });

  it('keeps .git read-only to shell and refuses write_file to it, naming protectedPaths', async () => {
    const planted = await shell(
      sandboxed,
      'mkdir -p .git/hooks && echo x > .git/hooks/pre-commit; echo done',
    );
    expect(planted.structuredContent?.stdout).toBe('done\n');
    expect(existsSync(join(world.root, '.git'))).toBe(false);
    const written = (await sandboxed.callTool({
      name: 'write_file',
      arguments: { path: '.git/config', content: '[core]\n\tfsmonitor = touch /tmp/x\n' },
    })) as Structured;
    expect(written.isError).toBe(true);
    expect(JSON.stringify(written.content)).toContain('protectedPaths');
  });

  it('ends a fork bomb on the process limit, and answers the next call', async () => {
    // A function definition is not a line toolgate's shell parser reads: the bomb runs from a script.
    writeFileSync(join(world.root, 'bomb.sh'), 'bomb() { bomb | bomb & }; bomb; sleep 2\n');
    const bomb = await shell(sandboxed, 'sh bomb.sh', 60_000);
    expect(bomb.structuredContent?.limit).toMatchObject({ name: 'processes' });
    expect((await shell(sandboxed, 'echo answered')).structuredContent?.stdout).toBe('answered\n');
  }, 90_000);

  it('refuses shell calls past four at once in one session', async () => {
    const calls = Array.from({ length: 5 }, () => shell(sandboxed, 'sleep 3; echo slept', 30_000));
    const results = await Promise.all(calls);
    const refused = results.filter((result) => result.isError);
    expect(refused).toHaveLength(1);
    expect(JSON.stringify(refused[0]?.content)).toContain('maxConcurrentCommands 4');
    expect(results.filter((result) => result.structuredContent?.stdout === 'slept\n')).toHaveLength(4);
  }, 90_000);
});

describe.skipIf(sandboxSkipReason() !== undefined || process.getuid?.() !== 0)(
  'toolgate-mcp --sandbox started by an unprivileged user (nobody), from a root test',
  () => {
    let world: TempWorld;
    let client: Client;
    beforeAll(async () => {
      world = makeWorld();
      giveToSandboxUser(world.root);
      chmodSync(world.base, 0o755); // so nobody's server can reach its --root
      client = new Client({ name: 'attacker', version: '1' });
      // setpriv starts the server as nobody: bubblewrap then makes a user namespace of that user.
      await client.connect(
        new StdioClientTransport({
          command: '/usr/bin/setpriv',
          args: [
            `--reuid=${sandboxTestUser.uid}`,
            `--regid=${sandboxTestUser.gid}`,
            '--clear-groups',
            process.execPath,
            cliPath(),
            ...['--tools', 'write_file,shell', '--root', world.root, '--sandbox'],
          ],
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' },
          stderr: 'pipe',
        }),
      );
    });
    afterAll(async () => {
      await client.close();
      world.cleanup();
    });
    const shell = async (command: string) =>
      (await client.callTool({ name: 'shell', arguments: { command, timeoutMs: 60_000 } })) as Structured;

    it('opens no root-only /proc file, keeps .git read-only and ends a fork bomb on its limit', async () => {
      const probe = await shell(
        'id -u; true >> /proc/sys/kernel/core_pattern && echo opened; mkdir .git; echo done',
      );
      expect(probe.structuredContent?.stdout).toBe(`${sandboxTestUser.uid}\ndone\n`);
      expect(existsSync(join(world.root, '.git'))).toBe(false);
      writeFileSync(join(world.root, 'bomb.sh'), 'bomb() { bomb | bomb & }; bomb; sleep 2\n');
      const bomb = await shell('sh bomb.sh');
      expect(bomb.structuredContent?.limit).toMatchObject({ name: 'processes' });
      expect((await shell('echo answered')).structuredContent?.stdout).toBe('answered\n');
    }, 90_000);
  },
);

describe.skipIf(process.platform !== 'linux')('toolgate-mcp --sandbox without bubblewrap', () => {
  it('refuses to start, saying what to install, rather than serve shell unsandboxed', async () => {
    const world = makeWorld();
    try {
      const started = await run(
        process.execPath,
        [cliPath(), '--sandbox', '--tools', 'shell', '--root', world.root],
        { env: { PATH: join(world.base, 'no-bin-here') } },
      );
      expect(started.code).toBe(2);
      expect(started.stderr).toContain('bubblewrap is not installed');
      expect(started.stderr).toContain('apt-get install bubblewrap');
    } finally {
      world.cleanup();
    }
  });
});
