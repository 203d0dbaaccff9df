export type { CallerIdentity } from './access-token.js';
export { authInfoOf, identityOf, identityRecord } from './auth-info.js';
export { HttpAuthentication } from './authenticate.js';
