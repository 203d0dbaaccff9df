/**
 * What a terminal acts on or a reader cannot see: C0 and C1 controls (ESC, CSI, line breaks), DEL,
 * the line and paragraph separators, format characters (bidi overrides and isolates, zero-width
 * ones), lone surrogates, private-use and unassigned code points, and spaces other than U+0020.
 */
const unseen = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Zs}]/u;
const unseenAll = new RegExp(unseen.source, 'gu');

/** The characters a word may hold and still be shown bare: letters, digits and a few marks of ids. */
const wordShape = /^[\p{L}\p{N}_.:/@+=,~*#-]+$/u;

/** `\uXXXX` for each UTF-16 unit of `text` (an astral code point gives its surrogate pair). */
function unicodeEscapes(text: string): string {
  let escaped = '';
  for (let index = 0; index < text.length; index++) {
    escaped += `\\u${text.charCodeAt(index).toString(16).padStart(4, '0')}`;
  }
  return escaped;
}

/**
 * `text` in double quotes with JSON's escapes, and every character {@link unseen} holds escaped as
 * `\uXXXX` too (JSON leaves C1 controls, DEL, bidi overrides and U+2028 raw): the output holds no
 * byte a terminal would act on, and reads back with `JSON.parse`.
 */
export function quoted(text: string): string {
  return escapeUnseen(JSON.stringify(text));
}

/** Bare when `text` is one plain word (a tool name, a call id, a kind); else {@link quoted}. */
export function shownWord(text: string): string {
  return wordShape.test(text) ? text : quoted(text);
}

/**
 * Bare when `text` is prose a terminal shows as it is (no character {@link unseen} holds but the
 * space, not starting with a quote or a space); else {@link quoted}. For reasons and messages.
 */
export function shownProse(text: string): string {
  const plain = text !== '' && !/^["\s]|\s$/.test(text) && !unseen.test(text.replaceAll(' ', ''));
  return plain ? text : quoted(text);
}

/** `JSON.stringify(value)` with every character {@link unseen} holds (but the space) escaped: still JSON, same value. */
export function safeJson(value: unknown): string {
  return escapeUnseen(JSON.stringify(value) ?? 'undefined');
}

function escapeUnseen(json: string): string {
  return json.replace(unseenAll, (character) => (character === ' ' ? character : unicodeEscapes(character)));
}
