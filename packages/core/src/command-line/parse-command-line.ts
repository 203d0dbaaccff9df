import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ToolgateError } from '../errors.js';
import { joinDashValues, type OptionShape } from './dash-values.js';

type Parsed<Options extends Record<string, OptionShape>, Positionals extends boolean> = ReturnType<
  typeof parseArgs<{ args: string[]; options: Options; strict: true; allowPositionals: Positionals }>
>;

/**
 * Reads a toolgate command's arguments the way every toolgate command reads them: strictly (an
 * unknown option, or a value given to a flag, is refused), `--name value` with a value that starts
 * with a dash read as that value (`joinDashValues`), and words that are not options only when
 * `positionals` is true. A bad argument throws a ToolgateError (INVALID_DEFINITION) with the
 * sentence that says what is wrong (`Unknown option '--prot'`); the command adds where to look.
 *
 * @param shape.options - the options, as `node:util`'s `parseArgs` takes them (`{ port: { type: 'string' } }`)
 * @param shape.positionals - whether words that are not options are allowed (`verify FILE`); default false
 *
 * @example
 * const { values } = parseCommandLine(['--port', '8080'], { options: { port: { type: 'string' } } });
 * wholeNumber(values.port ?? '0', { option: '--port', max: 65535 }); // 8080
 */
export function parseCommandLine<
  const Options extends Record<string, OptionShape>,
  Positionals extends boolean = false,
>(
  argv: readonly string[],
  shape: { options: Options; positionals?: Positionals },
): Parsed<Options, Positionals> {
  const config = {
    args: joinDashValuesRefused(argv, shape.options),
    options: shape.options,
    strict: true,
    allowPositionals: shape.positionals ?? false,
  } satisfies ParseArgsConfig;
  try {
    return parseArgs(config) as Parsed<Options, Positionals>;
  } catch (error) {
    throw new ToolgateError('INVALID_DEFINITION', (error as Error).message, { cause: error });
  }
}

function joinDashValuesRefused(argv: readonly string[], options: Record<string, OptionShape>): string[] {
  try {
    return joinDashValues(argv, options);
  } catch (error) {
    throw new ToolgateError('INVALID_DEFINITION', (error as Error).message, { cause: error });
  }
}
