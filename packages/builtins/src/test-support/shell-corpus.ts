// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell lines, written as the model would send them
import fc from 'fast-check';

/** Programs the differential test puts on PATH as recording shims (none is a shell built-in). */
export const shimNames = [
  'a1',
  'b2',
  'npm',
  'rm',
  'git',
  'cat',
  'ls',
  'grep',
  'env',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'xargs',
  'find',
  'sudo',
  'busybox',
  'sh',
  'bash',
  'python3',
  'node',
  'awk',
  'tee',
] as const;

const rich = [...'abz09 ;&|<>()*?[]~{},.=#!$`"\'\\/:%+-\t\n'];
const plainCharacters = [...'abcxyz019._/=:@%+,-'];
const text = (characters: readonly string[], maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...characters), maxLength });

const piece: fc.Arbitrary<string> = fc.oneof(
  { weight: 14, arbitrary: text(plainCharacters, 6).filter((value) => value.length > 0) },
  {
    weight: 3,
    arbitrary: text(
      rich.filter((character) => character !== "'"),
      6,
    ).map((value) => `'${value}'`),
  },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(
          text(plainCharacters, 3),
          fc.constantFrom(
            '\\\\',
            '\\"',
            '\\$',
            '\\`',
            '\\x',
            '\\\n',
            "'",
            ' ',
            '*',
            ';',
            '$X',
            '${X}',
            '#',
            '!',
            '~',
          ),
        ),
        { maxLength: 4 },
      )
      .map((parts) => `"${parts.join('')}"`),
  },
  { weight: 2, arbitrary: fc.constantFrom(...rich).map((character) => `\\${character}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "$'a\\0b'",
      "$'\\''",
      "$'x\\x41'",
      '$"loc"',
      '\u0000',
      '\r',
      '\u0007',
      '$X',
      '${X}',
      '$HOME',
      '$(a1)',
      '`a1`',
      '$((1+1))',
      '${X:-y}',
      '$1',
      '$?',
      '$',
      '$[1]',
      '*',
      '?',
      '[ab]',
      '*.txt',
      '~',
      '~/x',
      '{a,b}',
      '{1..2}',
      '{}',
      '#c',
      '!',
      '%',
      '=',
      "'",
      '"',
      '(',
      ')',
    ),
  },
);

const word = fc.array(piece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(''));

/** A shim's name as a line may spell it: plain, quoted, escaped, split between quotes. */
const commandName = (shimDirectory: string) =>
  fc
    .constantFrom(...shimNames)
    .chain((name) =>
      fc.constantFrom(
        name,
        `'${name}'`,
        `"${name}"`,
        `\\${name}`,
        `${name[0]}"${name.slice(1)}"`,
        `${shimDirectory}/${name}`,
      ),
    );

const redirect = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '> out1',
      ">> 'o 2'",
      '2> err',
      '2>&1',
      '>&2',
      '< in.txt',
      '1>o3',
      '>|o4',
      '<>o5',
      '>/dev/null',
      "> 'a\\b'",
      '>"q r"',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '> out1',
      ">> 'o 2'",
      '2> err',
      '2>&1',
      '>&2',
      '< in.txt',
      '<in.txt',
      '1>o3',
      '>|o4',
      '<>o5',
      '>/dev/null',
      '&> x',
      '<<< x',
      '<< E',
      '10> x',
      '>& f',
      '> *.txt',
      '> $X',
      '>',
    ),
  },
);

const separator = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      ' ; ',
      ';',
      ' && ',
      '&&',
      ' || ',
      '||',
      ' | ',
      '|',
      ' & ',
      '&',
      '\n',
      '&&\n',
      ' ;\n\n ',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(' ;; ', ' |& ', ' | | ', ' && && ', ' ; ; ') },
);

const command = (shimDirectory: string) =>
  fc
    .record({
      assignment: fc.option(fc.constantFrom('A=1', 'B=x', "C='a b'", 'D=$X', 'E=', 'A+=1'), {
        freq: 4,
      }),
      name: commandName(shimDirectory),
      words: fc.array(word, { maxLength: 4 }),
      redirects: fc.array(redirect, { maxLength: 1 }),
    })
    .map(({ assignment, name, words, redirects }) =>
      [...(assignment === null ? [] : [assignment]), name, ...words, ...redirects].join(' '),
    );

/** Lines of shell made of the constructs where parsers and shells most often disagree. */
export const shellLine = (shimDirectory: string): fc.Arbitrary<string> =>
  fc
    .record({
      first: command(shimDirectory),
      rest: fc.array(fc.tuple(separator, command(shimDirectory)), { maxLength: 3 }),
      end: fc.constantFrom('', '', '', ' &', ';', ' # tail ; rm x', '\t'),
    })
    .map(({ first, rest, end }) => first + rest.map(([join, next]) => join + next).join('') + end);

/** Hand-written lines: the attacks of issue 24 and the corners of the grammar. */
export const handWrittenLines = (shimDirectory: string): string[] => [
  "npm $'test\\0\\' ; a1 X ; ' '",
  'npm test',
  `${shimDirectory}/rm f`,
  "\\rm 'f'",
  'env rm f',
  'env -i A=1 rm f',
  'nice -n 5 rm f',
  'timeout 5 rm f',
  "sh -c 'rm f'",
  'bash -c "rm f"',
  'a1 f | xargs rm',
  'find . -name f -delete',
  'find . -exec rm {} +',
  "find . -exec rm '{}' ';'",
  'a1 "a\\"b" \'c\\d\' e\\ f',
  'a1 "$X" $X ${X} "${X}"',
  'a1 a#b #c',
  'a1 \\#x',
  'a1\\\nb2',
  'a1 "x\\\ny"',
  "a1 'x\ny'",
  'a1 x &\nb2 y',
  'a1 && b2 || rm f; git x',
  'a1 || b2 && rm f',
  'A=1 B=2 npm test',
  "'A=1' npm",
  'a1 > out1 2> err < in.txt',
  'a1 2>&1 >/dev/null | b2',
  'a1 ""',
  "a1 ''",
  'a1 "" "" x',
  'a1 $',
  'a1 "$"',
  'a1 $/',
  'a1 x=~/y',
  'a1 --prefix=~/y',
  'a1 ~',
  'a1 *',
  'a1 {a,b}',
  'a1 {}',
  'a1 !x',
  'a1 1&&b2 2;a1 3|b2 4&a1 5||b2 6',
  'a1 2>err 3 4>o3',
  'a1 # x\\\nb2',
  'a1 2\\\n>o3',
  "a1 'x'\\\n'y'",
  'a1 &\\\n& b2',
  'a1 >\\\n> o4',
  'a1 [',
  'a1 ]',
];
