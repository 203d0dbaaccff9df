// A loopback forwarder that adds `Authorization: Bearer $FORWARD_TOKEN` to every request and passes
// everything else through unchanged — method, path, every header (Host and Origin included, so the
// gateway's own DNS-rebinding checks are what a client meets) and the streamed response. For a
// client that cannot send a bearer token, such as the MCP conformance suite's server mode.
//
// Usage: FORWARD_TOKEN=… node bearer-forwarder.mjs --target http://127.0.0.1:PORT
//        (prints "forwarder listening on http://127.0.0.1:N")
import { createServer, request as httpRequest } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { target: { type: 'string' }, port: { type: 'string', default: '0' } },
});
const token = process.env.FORWARD_TOKEN;
if (values.target === undefined || token === undefined || token === '') {
  process.stderr.write(
    'usage: FORWARD_TOKEN=TOKEN node bearer-forwarder.mjs --target http://127.0.0.1:PORT\n',
  );
  process.exit(2);
}
const target = new URL(values.target);

const forwarder = createServer((incoming, outgoing) => {
  const upstream = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      method: incoming.method,
      path: incoming.url,
      headers: { ...incoming.headers, authorization: `Bearer ${token}` },
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', (error) => {
    if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
    outgoing.end(`forwarder: ${error.message}`);
  });
  // a client that goes away closes its side of the forwarded request too (an SSE stream, say)
  outgoing.on('close', () => upstream.destroy());
  incoming.pipe(upstream);
});

forwarder.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`forwarder listening on http://127.0.0.1:${forwarder.address().port}\n`);
});
const stop = () => forwarder.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
