/**
 * A test of a resource URI against a rule's `resources` globs (the gateway's resource reads): `**`
 * matches any characters, `*` any but `/`, `?` one character but `/`; everything else is itself
 * (no braces, classes or escapes, so `test://x` is just that text), and the whole URI must match.
 * The same reading as a gateway client's `resources` grant.
 */
export function resourceUriMatcher(globs: readonly string[]): (uri: string) => boolean {
  let tests: RegExp[] | undefined;
  return (uri) => {
    tests ??= globs.map(uriExpression);
    for (const test of tests) if (test.test(uri)) return true;
    return false;
  };
}

function uriExpression(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index]!;
    if (character === '*' && glob[index + 1] === '*') {
      source += '[\\s\\S]*';
      index += 1;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else source += character.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}
