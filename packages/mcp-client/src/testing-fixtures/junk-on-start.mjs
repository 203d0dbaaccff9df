// Prints a banner on stdout (where only JSON-RPC belongs) before it would serve anything.
process.stdout.write('Welcome to my MCP server v1!\n');
process.stdin.resume();
setInterval(() => {}, 60_000);
