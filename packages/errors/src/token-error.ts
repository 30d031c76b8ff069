import { PartnerApisError } from './partner-apis-error.js';
import { redactUrl, scrubSecrets } from './redaction.js';

/** Everything a `TokenError` is made from. */
export interface TokenErrorInit {
  /** HTTP status of the token response. */
  status: number;
  /**
   * The RFC 6749 §5.2 `error` code (`invalid_client`, `invalid_scope`, …), or
   * `unexpected_response` when the body was not a token error body, or
   * `invalid_token_response` when a 2xx carried no usable token.
   */
  error: string;
  /** The server's `error_description`. */
  errorDescription?: string | undefined;
  /** The server's `error_uri`. */
  errorUri?: string | undefined;
  /** The token endpoint. */
  tokenUrl: string;
  /** Credential values that must not appear even if the server echoed them. */
  secrets?: readonly string[] | undefined;
}

const HINTS: Readonly<Record<string, string>> = {
  invalid_client: 'check the client ID and secret; a secret expires one year after it was set',
  invalid_scope: 'check the scopes the client is registered for',
  unauthorized_client: 'the client may not use the client credentials grant',
  unsupported_grant_type: 'the endpoint does not accept the client credentials grant',
};

/** A refusal whose description names the subscription key is about the key, not the client. */
const SUBSCRIPTION_KEY = /subscription[\s_-]?key/i;
const KEY_HINT =
  'check the subscription key of this API scope (primary or secondary) in the portal';

/**
 * The token endpoint refused to issue a token (RFC 6749 §5.2), or answered with no usable
 * token. Not retried: the same request would be refused again. Never contains the secret.
 *
 * @example
 * if (error instanceof TokenError && error.error === 'invalid_client') rotateSecret();
 */
export class TokenError extends PartnerApisError {
  static override readonly kind: string = 'TokenError';
  readonly status: number;
  /** The RFC 6749 §5.2 error code, or `unexpected_response` / `invalid_token_response`. */
  readonly error: string;
  readonly errorDescription: string | undefined;
  readonly errorUri: string | undefined;
  /** The token endpoint, with user info, query string and fragment redacted. */
  readonly tokenUrl: string;

  constructor(init: TokenErrorInit) {
    const description =
      init.errorDescription === undefined
        ? undefined
        : scrubSecrets(init.errorDescription, init.secrets);
    // The server chose `error` and `error_uri` too, so it may have echoed a secret there as well.
    const error = scrubSecrets(init.error, init.secrets);
    const errorUri =
      init.errorUri === undefined ? undefined : scrubSecrets(init.errorUri, init.secrets);
    const hint = SUBSCRIPTION_KEY.test(description ?? '') ? KEY_HINT : HINTS[error];
    const tokenUrl = redactUrl(init.tokenUrl);
    super(
      `Token request to ${tokenUrl} refused with ${error} (HTTP ${init.status})` +
        (description === undefined ? '' : `: ${description}`) +
        (hint === undefined ? '' : ` — ${hint}`),
    );
    this.status = init.status;
    this.error = error;
    this.errorDescription = description;
    this.errorUri = errorUri;
    this.tokenUrl = tokenUrl;
  }

  protected override details(): Record<string, unknown> {
    return {
      status: this.status,
      error: this.error,
      errorDescription: this.errorDescription,
      errorUri: this.errorUri,
      tokenUrl: this.tokenUrl,
    };
  }
}
