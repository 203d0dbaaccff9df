export type { CallerIdentity } from './access-token.js';
export { authInfoOf, identityOf, identityRecord } from './auth-info.js';
export { HttpAuthentication } from './authenticate.js';
export type { ClientMatch, OAuthSettings } from './oauth-schema.js';
export { clientMatch, clientMatchSchema, oauthSchema, oauthSettings } from './oauth-schema.js';
