import { readFileSync } from 'node:fs';

/**
 * This package's version as its package.json says (the file sits one level above both `src/` and
 * `dist/`, so the source and the build read the same one): what `--version` prints and the MCP
 * handshake reports.
 */
export const packageVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
