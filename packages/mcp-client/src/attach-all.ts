/** How many servers `MCPResolver.connect` starts and initializes at once. */
export const maxParallelConnects = 32;

/**
 * Runs `attach` for every item, at most `limit` at once, and waits for all of them to settle.
 * Resolves to the failure of the first item in `items`' order that failed (so the error named does
 * not depend on which server answered first), or undefined when none did.
 */
export async function firstFailure<Item>(
  items: readonly Item[],
  limit: number,
  attach: (item: Item) => Promise<unknown>,
): Promise<{ error: unknown } | undefined> {
  const failures = new Array<{ error: unknown } | undefined>(items.length);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < items.length; index = next++) {
      await attach(items[index]!).catch((error: unknown) => {
        failures[index] = { error };
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return failures.find((failure) => failure !== undefined);
}
