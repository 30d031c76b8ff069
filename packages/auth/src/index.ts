export type {
  AuthAnswer,
  AuthContext,
  AuthEvents,
  AuthRequest,
  AuthScheme,
  KeyFailoverEvent,
  TokenRefreshEvent,
  TokenRefreshReason,
} from './auth-scheme.js';
export { basicAuthorization } from './credentials.js';
export type { ClientCredentials } from './credentials.js';
export { apiKeyAuth, basicAuth, bearerAuth, clientIdHeaders } from './static-schemes.js';
export type { ApiKey } from './static-schemes.js';
export type { KeyPlacement } from './key-placement.js';
export {
  DEFAULT_SCOPE_SEPARATOR,
  DEFAULT_TOKEN_REQUEST_KEY,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  oauth2ClientCredentials,
} from './oauth2-client-credentials.js';
export type {
  OAuth2ClientCredentialsOptions,
  OAuth2ClientCredentialsScheme,
} from './oauth2-client-credentials.js';
export { TokenCache, createTokenCache, sharedTokenCache } from './token-cache.js';
export type { CachedToken } from './token-cache.js';
export { parseTokenErrorBody, parseTokenResponse } from './token-response.js';
export type { Scope, TokenErrorResponse, TokenResponse } from './token-response.js';
export { SECRET_EXPIRY_WARNING_DAYS, checkSecretExpiry } from './secret-expiry.js';
export type { DateInput, SecretDates, SecretExpiry } from './secret-expiry.js';
export { isLoopbackHost, parseSecureUrl } from './secure-url.js';
export type { components, paths } from './generated/openapi.js';
