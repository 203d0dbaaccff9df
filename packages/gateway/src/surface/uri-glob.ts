/**
 * A test of a resource URI against a glob of a client's `resources` grant: `**` matches any
 * characters, `*` any but `/`, `?` one character but `/`; everything else is itself (no braces,
 * classes or escapes), and the whole URI must match.
 */
export function uriGlob(pattern: string): (uri: string) => boolean {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index]!;
    if (char === '*' && pattern[index + 1] === '*') {
      source += '[\\s\\S]*';
      index += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  const expression = new RegExp(`^${source}$`, 'u');
  return (uri) => expression.test(uri);
}
