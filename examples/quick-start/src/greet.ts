/** A file for the quick start's agent to find: `glob src/*.ts` lists it. */
export const greet = (name: string): string => `hello, ${name}`;
