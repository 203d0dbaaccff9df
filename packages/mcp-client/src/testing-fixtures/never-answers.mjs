// Starts, reads stdin, and never answers anything — not even the MCP handshake.
process.stdin.resume();
setInterval(() => {}, 60_000);
