/** A path glob's leading segments that are plain names (`src/lib/**` → `src`, `lib`; `/etc/*` → ``, `etc`). */
export function pathKeys(glob: string): string[] {
  const keys: string[] = [];
  let start = 0;
  if (glob.charCodeAt(0) === slash) {
    keys.push(''); // the root
    start = 1;
  }
  for (;;) {
    let end = start;
    while (end < glob.length && isPlainNameCode(glob.charCodeAt(end))) end++;
    const last = end === glob.length;
    if (end === start || (!last && glob.charCodeAt(end) !== slash)) return keys;
    const segment = glob.slice(start, end);
    if (segment === '.' || segment === '..') return keys;
    keys.push(segment);
    if (last) return keys;
    start = end + 1;
  }
}

/** A host glob's trailing labels that are plain names, last first (`*.example.com` → `com`, `example`). */
export function hostKeys(glob: string): string[] {
  const keys: string[] = [];
  for (const label of glob.toLowerCase().split('.').reverse()) {
    if (!/^[\w-]+$/.test(label)) break;
    keys.push(label);
  }
  return keys;
}

const slash = 0x2f;

/** True for the characters of a plain path segment, which no glob gives a meaning to: `[\w.~-]`. */
function isPlainNameCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x5f || // _
    code === 0x2e || // .
    code === 0x7e || // ~
    code === 0x2d // -
  );
}
