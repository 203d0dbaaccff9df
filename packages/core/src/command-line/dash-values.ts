/** The shape of a `parseArgs` option, as far as the command-line helpers need it. */
export interface OptionShape {
  type: 'string' | 'boolean';
  short?: string;
}

/**
 * Joins `--name value` into `--name=value` when `--name` takes a value and the value starts with a
 * dash (`--port -1`, `--seed -moss`), so `parseArgs` reads it as the value and the command's own
 * check can name it, instead of calling it "ambiguous". When the next token is itself one of the
 * options (`--port --http`) the value really is missing: that throws an Error saying so. Shared by
 * the toolgate commands (`toolgate-mcp`, `toolgate-ledger`, the demo) so they read arguments alike.
 */
export function joinDashValues(argv: readonly string[], options: Record<string, OptionShape>): string[] {
  const shorts = new Set(
    Object.values(options).flatMap((option) => (option.short ? [`-${option.short}`] : [])),
  );
  const isOption = (token: string) =>
    token === '--' ||
    shorts.has(token) ||
    (token.startsWith('--') && Object.hasOwn(options, token.slice(2).split('=')[0]!));
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index]!;
    if (token === '--') {
      joined.push(...argv.slice(index));
      break;
    }
    const next = argv[index + 1];
    const takesValue =
      token.startsWith('--') &&
      !token.includes('=') &&
      Object.hasOwn(options, token.slice(2)) &&
      options[token.slice(2)]!.type === 'string';
    if (takesValue && next !== undefined && isOption(next)) {
      throw new Error(`${token} needs a value, but the next argument is the option ${next}`);
    }
    if (takesValue && next?.startsWith('-') && next !== '-') {
      joined.push(`${token}=${next}`);
      index++;
    } else {
      joined.push(token);
    }
  }
  return joined;
}
