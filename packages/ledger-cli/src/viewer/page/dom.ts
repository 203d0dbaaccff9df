/** Attributes a page element may get: a class, a title, data-* (never an event handler or HTML). */
export interface Attributes {
  class?: string;
  title?: string;
  data?: Record<string, string>;
}

/**
 * Makes an element whose text is set with `textContent` and whose children are appended as nodes:
 * ledger content is attacker-influenced (tool outputs) and is never parsed as HTML.
 */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (attributes.class) node.className = attributes.class;
  if (attributes.title) node.title = attributes.title;
  for (const [name, value] of Object.entries(attributes.data ?? {})) node.dataset[name] = value;
  for (const child of children) {
    if (child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** Text clipped to a length, with an ellipsis. */
export function clip(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
