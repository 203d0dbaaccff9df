const variable = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * `text` with every `${NAME}` replaced by the variable's value from `env`. A variable that is not set
 * is an error naming it (through `fail`), never an empty string: a header such as
 * `Bearer ${TOKEN}` must not silently go out as `Bearer `.
 */
export function expandVariables(
  text: string,
  env: NodeJS.ProcessEnv,
  fail: (message: string) => Error,
): string {
  return text.replace(variable, (_, name: string) => {
    const value = env[name];
    if (value === undefined) {
      throw fail(
        `the environment variable ${name} is not set (used as \${${name}}); set it, or remove the reference`,
      );
    }
    return value;
  });
}
