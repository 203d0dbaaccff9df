// Dies before the MCP handshake, saying why on stderr.
process.stderr.write('crashes-on-start: missing configuration file /etc/nowhere.toml\n');
process.exit(1);
