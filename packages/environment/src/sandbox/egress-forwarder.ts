/** The port the forwarder listens on inside the sandbox (its own network namespace: loopback only). */
export const forwarderPort = 3128;

/**
 * The script Node runs inside the sandbox in front of the command (`network: 'policy'`): it listens
 * on 127.0.0.1:{@link forwarderPort} of the sandbox's own network namespace, carries each connection
 * to the proxy's Unix socket (the only way out), runs the command, and exits as the command did.
 */
export const forwarderScript = `'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [socketPath, file, ...args] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream).pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
server.listen(${forwarderPort}, '127.0.0.1', () => {
  const child = spawn(file, args, { stdio: 'inherit' });
  child.on('error', (error) => { console.error(error.message); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] || 0)));
});
`;
