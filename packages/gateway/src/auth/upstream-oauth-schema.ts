import { z } from 'zod';

const nonEmpty = z.string().min(1, 'must not be empty');
const variable = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable');

/**
 * An HTTP upstream's `oauth:`: the gateway obtains its access tokens by the client credentials
 * grant (RFC 6749 §4.4), or with a stored refresh token (§6; `refresh_token` or
 * `refresh_token_file`), from `token_endpoint`, or the one `issuer`'s metadata names, or, with
 * neither, the one the upstream's protected resource metadata names (RFC 9728, found from its 401),
 * for the upstream's URL as the resource (RFC 8707), caches them and gets a new one before one
 * expires. The client authenticates with a secret (`client_secret_env`) or a signed JWT
 * (`client_assertion_key_file`).
 */
export const upstreamOAuthSchema = z
  .strictObject({
    issuer: z.url({ message: 'must be the authorization server issuer URL' }).optional(),
    token_endpoint: z.url({ message: 'must be the token endpoint URL' }).optional(),
    client_id: nonEmpty,
    // the environment variable holding the client secret (never the secret itself); without a
    // refresh token it is required (client credentials), with one optional (a public client)
    client_secret_env: variable.optional(),
    // a refresh token to renew with instead (usually "${VAR}"); a rotated one is kept in memory
    refresh_token: nonEmpty.optional(),
    // or the file holding it: a rotated one is written back there (atomically, mode 0600)
    refresh_token_file: nonEmpty.optional(),
    // or, instead of a secret, a PEM private key file: the client authenticates by a signed JWT
    // (private_key_jwt, RFC 7523), its algorithm from the key (ES256 for P-256, RS256, EdDSA)
    client_assertion_key_file: nonEmpty.optional(),
    scope: nonEmpty.optional(),
    // the audience to ask for; default: the upstream's url
    resource: z.url({ message: 'must be a URL' }).optional(),
  })
  .refine((oauth) => oauth.issuer === undefined || oauth.token_endpoint === undefined, {
    message:
      'give one of "issuer" (its metadata names the token endpoint) or "token_endpoint", not both (or neither: the upstream\'s protected resource metadata names its authorization server)',
  })
  .refine((oauth) => oauth.client_secret_env === undefined || oauth.client_assertion_key_file === undefined, {
    message: 'give one of "client_secret_env" or "client_assertion_key_file", not both',
    path: ['client_assertion_key_file'],
  })
  .refine((oauth) => oauth.refresh_token === undefined || oauth.refresh_token_file === undefined, {
    message: 'give one of "refresh_token" or "refresh_token_file", not both',
    path: ['refresh_token_file'],
  })
  .refine(
    (oauth) =>
      oauth.client_secret_env !== undefined ||
      oauth.client_assertion_key_file !== undefined ||
      oauth.refresh_token !== undefined ||
      oauth.refresh_token_file !== undefined,
    {
      message:
        'give "client_secret_env" or "client_assertion_key_file" (client credentials) or a refresh token ("refresh_token" or "refresh_token_file")',
      path: ['client_secret_env'],
    },
  );

/** An upstream's `oauth:` as written. */
export type UpstreamOAuthSection = z.output<typeof upstreamOAuthSchema>;
