/**
 * The longest run of plain characters every match of `pattern` must contain, or undefined when
 * none can be promised (top-level alternation, or nothing literal). A file without it cannot match,
 * so the JavaScript engine skips it without decoding a byte.
 */
export function requiredLiteral(pattern: string): string | undefined {
  let best = '';
  let run = '';
  let depth = 0;
  let inClass = false;
  const end = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    const next = pattern[index + 1];
    if (inClass) {
      if (char === '\\') index++;
      else if (char === ']') inClass = false;
      continue;
    }
    if (char === '\\') {
      const escaped = pattern[index + 1];
      index++;
      if (escaped !== undefined && /[.*+?()[\]{}|^$\\/-]/.test(escaped) && depth === 0) {
        if (isOptional(pattern[index + 1])) end();
        else run += escaped;
      } else end();
      continue;
    }
    if (char === '|' && depth === 0) return undefined;
    if (char === '(') {
      depth++;
      end();
      continue;
    }
    if (char === ')') {
      depth--;
      continue;
    }
    if (char === '[') {
      inClass = true;
      end();
      continue;
    }
    if (depth > 0) continue;
    if (char === '{') {
      const quantifier = /^\{\d+(,\d*)?\}/.exec(pattern.slice(index));
      if (quantifier) index += quantifier[0].length - 1;
      end();
      continue;
    }
    if ('.^$*+?}'.includes(char)) {
      end();
      continue;
    }
    if (isOptional(next)) end();
    else run += char;
  }
  end();
  return best === '' ? undefined : best;
}

function isOptional(quantifier: string | undefined): boolean {
  return quantifier === '?' || quantifier === '*' || quantifier === '{';
}
