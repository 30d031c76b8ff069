import { basicAuthorization, parseTokenErrorBody } from '@partner-apis/auth';
import { at, mediaSchema, modelOf, pointer, validate } from './documents.js';
import type { Observed, Run } from './run.js';
import type { Answer, Failed, Sender } from './send.js';
import type { PortalCredentials } from './types.js';

type Json = Record<string, unknown>;

const TOKEN_PATH = '/login/connect/token';
const TOKEN = { spec: 'auth', path: TOKEN_PATH, method: 'post' } as const;
const FORM = 'application/x-www-form-urlencoded';
const ENCODING_TOKENS = [
  'paths',
  TOKEN_PATH,
  'post',
  'requestBody',
  'content',
  FORM,
  'encoding',
  'scope',
] as const;
const SCOPE_MARKER = '/components/schemas/TokenRequest/properties/scope/x-upstream-gap';
const KEY_MARKER = '/paths/~1login~1connect~1token/post/x-upstream-gap';
const FIELDS_MARKER = '/components/schemas/TokenResponse/x-upstream-gap';
const LIFETIME_MARKER = '/components/schemas/TokenResponse/properties/expires_in/x-upstream-gap';
const GRANTED_MARKER = '/components/schemas/TokenResponse/properties/scope/x-upstream-gap';

/** The checks of the token endpoint's guesses: where each is, what would confirm or contradict it. */
const KEY_CHECK = {
  spec: 'auth',
  pointer: KEY_MARKER,
  toldApart: true,
  expects: {
    confirm: "a token granted with the key in the spec's header, and a wrong key there refused",
    contradict: "the key refused in the spec's header (401) and accepted in another",
  },
} as const;
const SCOPE_CHECK = {
  spec: 'auth',
  pointer: SCOPE_MARKER,
  toldApart: true,
  expects: {
    confirm: 'the scopes granted joined as the spec encodes them',
    contradict: 'the scopes refused so (invalid_scope) and granted joined by another separator',
  },
} as const;
const FIELDS_CHECK = {
  spec: 'auth',
  pointer: FIELDS_MARKER,
  expects: {
    confirm: 'a token response that TokenResponse describes',
    contradict: 'one that breaks it',
  },
} as const;
const LIFETIME_CHECK = {
  spec: 'auth',
  pointer: LIFETIME_MARKER,
  expects: {
    confirm: 'expires_in a whole number of seconds, or absent',
    contradict: 'expires_in anything else',
  },
} as const;
const GRANTED_CHECK = {
  spec: 'auth',
  pointer: GRANTED_MARKER,
  expects: {
    confirm: "the granted scopes joined by the separator of the spec's example",
    contradict: 'the granted scopes joined by another separator',
  },
} as const;
const TOKEN_CHECKS = [KEY_CHECK, SCOPE_CHECK, FIELDS_CHECK, LIFETIME_CHECK, GRANTED_CHECK];

/** The OpenAPI encodings of a list in one form field, and the separator each joins with. */
const SCOPE_ENCODINGS = [
  { style: 'spaceDelimited', explode: false, separator: ' ', words: 'a space' },
  { style: 'form', explode: false, separator: ',', words: 'a comma' },
  { style: 'pipeDelimited', explode: false, separator: '|', words: 'a pipe' },
] as const;
type ScopeEncoding = (typeof SCOPE_ENCODINGS)[number];

/** The key sent to see whether a server reads the key header at all: made up, not a secret. */
export const WRONG_KEY = 'not-a-subscription-key';

/**
 * Header names an API gateway commonly reads a subscription key from, tried when the spec's
 * header is refused.
 */
export const KEY_HEADERS = [
  'Ocp-Apim-Subscription-Key',
  'Subscription-Key',
  'X-Api-Key',
  'Api-Key',
];

function oauthError(answer: Answer | Failed): string | undefined {
  return 'failed' in answer ? undefined : parseTokenErrorBody(answer.text)?.error;
}

/** An answer that grants what it was asked for. */
function granted(answer: Answer | Failed): boolean {
  return !('failed' in answer) && answer.status < 300;
}

/** An access token of a portal service, found with the checks of the token endpoint's guesses. */
export interface TokenOutcome {
  token: string | undefined;
  /** Why there is no token, in one line. */
  why: string;
  /** What the token endpoint granted that it should have refused: `a wrong key`, … */
  accepted: string[];
}

/**
 * Requests a token of `scopes` the way the auth spec says, and checks its guesses on the way:
 * the scope separator, the subscription key header (a wrong key must be refused), the
 * response's fields and lifetime, the granted scope's separator, and the error body of a grant
 * type it must refuse. What it granted although it should have refused it is in `accepted`;
 * the guesses it could not tell apart stay unobserved.
 *
 * @example
 * const { token } = await checkToken(run, sender, 'exposure', target, ['Portal.Api', 'Portal.Api.Exposure'], secrets);
 */
export async function checkToken(
  run: Run,
  sender: Sender,
  service: string,
  target: { tokenUrl: string; credentials: PortalCredentials },
  scopes: readonly string[],
  secrets: Set<string>,
): Promise<TokenOutcome> {
  const { credentials, tokenUrl } = target;
  const auth = run.documents.auth as Json;
  const request = modelOf(auth).operations.find((o) => o.path === TOKEN_PATH);
  const specHeader = request?.security.apiKeys[0]?.name ?? KEY_HEADERS[0]!;
  const separator = request?.body?.separators?.scope;
  const preferred = SCOPE_ENCODINGS.find((e) => e.separator === separator) ?? SCOPE_ENCODINGS[0];
  const basic = basicAuthorization(
    credentials.clientId,
    credentials.clientSecret,
    'form-urlencoded',
  );
  // The header, its base64 and the pair it encodes: a server may echo any of them.
  const pair = Buffer.from(basic.slice(6), 'base64').toString('utf8');
  for (const secret of [basic, basic.slice(6), pair, pair.slice(pair.indexOf(':') + 1)])
    secrets.add(secret);
  const send = (
    encoding: ScopeEncoding,
    header: string,
    why: string,
    { key = credentials.subscriptionKeys.primary, grant = 'client_credentials' } = {},
  ) =>
    run.call(
      sender,
      TOKEN,
      {
        method: 'POST',
        url: tokenUrl,
        headers: {
          authorization: basic,
          'content-type': FORM,
          accept: 'application/json',
          [header]: key,
        },
        body: new URLSearchParams({
          grant_type: grant,
          scope: scopes.join(encoding.separator),
        }).toString(),
      },
      `${service}'s token request${why}`,
      // A grant is judged by the checks below; one to a request sent to be refused is no
      // evidence of the documented 200.
      (a) => a.status < 300,
    );

  // 1. The key header: the spec's, else the first a gateway commonly reads that works.
  let header = specHeader;
  let answer = await send(preferred, header, '');
  if ('failed' in answer) return unreachable(run, service, answer.failed);
  if (answer.status === 401) {
    for (const other of KEY_HEADERS.filter((h) => h.toLowerCase() !== specHeader.toLowerCase())) {
      const retry = await send(preferred, other, ` with the key in ${other}`);
      if (!('failed' in retry) && retry.status !== 401) {
        header = other;
        answer = retry;
        break;
      }
    }
  }
  // 2. The scope separator: on invalid_scope, the other encodings of the form field.
  let encoding: ScopeEncoding | undefined = preferred;
  const refusedScopes = answer.status === 400 && oauthError(answer) === 'invalid_scope';
  if (refusedScopes) {
    encoding = undefined;
    for (const other of SCOPE_ENCODINGS.filter((e) => e !== preferred)) {
      const retry = await send(other, header, ` with the scopes joined by ${other.words}`);
      if (!('failed' in retry) && retry.status === 200) {
        encoding = other;
        answer = retry;
        break;
      }
    }
  }
  const ok = answer.status === 200 && answer.isJson;
  const body = (ok ? answer.json : undefined) as Json | undefined;
  const token =
    typeof body?.access_token === 'string' && body.access_token !== ''
      ? body.access_token
      : undefined;
  if (token !== undefined) {
    secrets.add(token);
    secrets.add(`Bearer ${token}`);
  }

  // 3. Requests it must refuse: a wrong key in that header, a grant type it does not offer.
  let wrongKey: Answer | Failed | undefined;
  const accepted: string[] = [];
  if (ok) {
    wrongKey = await send(encoding ?? preferred, header, ` with a wrong key in ${header}`, {
      key: WRONG_KEY,
    });
    const password = await send(
      encoding ?? preferred,
      header,
      ' with grant_type password (deliberately refused)',
      { grant: 'password' },
    );
    if (granted(wrongKey)) accepted.push('a wrong key');
    if (granted(password)) accepted.push('grant_type password');
  }

  run.add(keyHeaderFinding(service, specHeader, header, answer, wrongKey));
  run.add(scopeFinding(service, preferred, encoding, refusedScopes, answer, accepted.length === 2));
  for (const finding of tokenResponseFindings(auth, service, ok ? body : undefined, scopes))
    run.add(finding);
  return {
    token,
    why:
      token === undefined
        ? `the token endpoint answered ${answer.status} to ${service}'s token request`
        : '',
    accepted,
  };
}

/** Every guess of the token endpoint, unobserved for the one reason there was no answer. */
export function unreachable(run: Run, service: string, why: string): TokenOutcome {
  for (const check of TOKEN_CHECKS)
    run.add({ ...check, status: 'unobserved', evidence: `${service}: ${why}` });
  return { token: undefined, why, accepted: [] };
}

function keyHeaderFinding(
  service: string,
  specHeader: string,
  header: string,
  answer: Answer,
  wrongKey: Answer | Failed | undefined,
): Observed {
  const base = KEY_CHECK;
  if (answer.status === 401) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `${service}: the token endpoint refused the credentials with the key in each of ${KEY_HEADERS.join(', ')}: the client ID, secret or key may be wrong`,
    };
  }
  if (header !== specHeader) {
    return {
      ...base,
      status: 'contradicted',
      evidence: `${service}: the token endpoint refused the key in ${specHeader} (401) and accepted it in ${header}`,
      edit: [
        {
          op: 'replace',
          path: '/components/securitySchemes/subscriptionKey',
          value: { type: 'apiKey', in: 'header', name: header },
        },
        {
          op: 'replace',
          path: KEY_MARKER,
          value: `The document does not say where the token request carries the subscription key; observed: the ${header} header.`,
        },
      ],
    };
  }
  if (wrongKey === undefined || 'failed' in wrongKey) {
    const why =
      wrongKey === undefined
        ? `answered ${answer.status}${oauthError(answer) ? ` (${oauthError(answer)})` : ''} without a token`
        : `did not answer a wrong key there (${wrongKey.failed})`;
    return { ...base, status: 'unobserved', evidence: `${service}: the token endpoint ${why}` };
  }
  if (wrongKey.status < 300) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `${service}: the token endpoint granted a token with a wrong key in ${header} too, so whether it reads the key there cannot be told`,
    };
  }
  return {
    ...base,
    status: 'confirmed',
    evidence: `${service}: the token endpoint granted a token with the key in ${header} and refused a wrong key there (${wrongKey.status})`,
  };
}

function scopeFinding(
  service: string,
  preferred: ScopeEncoding,
  found: ScopeEncoding | undefined,
  refused: boolean,
  answer: Answer,
  indiscriminate: boolean,
): Observed {
  const base = SCOPE_CHECK;
  if (found === undefined) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `${service}: the token endpoint refused the scopes joined by each of ${SCOPE_ENCODINGS.map((e) => e.words).join(', ')} with invalid_scope: the client may not be registered for them`,
    };
  }
  if (answer.status !== 200) {
    const error = oauthError(answer);
    return {
      ...base,
      status: 'unobserved',
      evidence: `${service}: the token endpoint answered ${answer.status}${error ? ` (${error})` : ''}, so the scopes were not judged`,
    };
  }
  if (indiscriminate) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `${service}: the token endpoint grants a token to anything, so the scopes it takes cannot be told`,
    };
  }
  if (!refused) {
    return {
      ...base,
      status: 'confirmed',
      evidence: `${service}: the token endpoint granted the scopes joined by ${preferred.words} (${preferred.style})`,
    };
  }
  return {
    ...base,
    status: 'contradicted',
    evidence: `${service}: the token endpoint refused the scopes joined by ${preferred.words} with invalid_scope and granted them joined by ${found.words}`,
    edit: [
      {
        op: 'replace',
        path: pointer(...ENCODING_TOKENS),
        value: { style: found.style, explode: found.explode },
      },
      {
        op: 'replace',
        path: SCOPE_MARKER,
        value: `The separator for several scopes is not shown; observed: the token endpoint refuses them joined by ${preferred.words} (invalid_scope) and grants them joined by ${found.words}.`,
      },
    ],
  };
}

function tokenResponseFindings(
  auth: Json,
  service: string,
  body: Json | undefined,
  scopes: readonly string[],
): Observed[] {
  const fields = FIELDS_CHECK;
  const lifetime = LIFETIME_CHECK;
  const granted = GRANTED_CHECK;
  if (body === undefined) {
    const evidence = `${service}: no token was granted`;
    return [
      { ...fields, status: 'unobserved', evidence },
      { ...lifetime, status: 'unobserved', evidence },
      { ...granted, status: 'unobserved', evidence },
    ];
  }
  const schema = mediaSchema(auth, at(auth, 'paths', TOKEN_PATH, 'post', 'responses', '200'));
  const problems = validate(auth, schema, body);
  const named = new Set(
    Object.keys(at(auth, 'components', 'schemas', 'TokenResponse', 'properties')),
  );
  const extra = Object.keys(body).filter((name) => !named.has(name));
  const findings: Observed[] = [
    problems.length === 0
      ? {
          ...fields,
          status: 'confirmed',
          evidence: `${service}: the token response carries ${Object.keys(body).join(', ')}${extra.length > 0 ? ` (beyond RFC 6749: ${extra.join(', ')})` : ''}`,
        }
      : {
          ...fields,
          status: 'contradicted',
          evidence: `${service}: the token response: ${problems.join('; ')}`,
        },
  ];
  const expiresIn = body.expires_in;
  findings.push(
    expiresIn === undefined
      ? {
          ...lifetime,
          status: 'confirmed',
          evidence: `${service}: the token response has no expires_in, so clients need their default lifetime`,
        }
      : Number.isInteger(expiresIn) && (expiresIn as number) >= 0
        ? {
            ...lifetime,
            status: 'confirmed',
            evidence: `${service}: tokens live ${String(expiresIn)} s (expires_in)`,
          }
        : {
            ...lifetime,
            status: 'contradicted',
            evidence: `${service}: expires_in is ${JSON.stringify(expiresIn)}, not a number of seconds`,
          },
  );
  const scope = body.scope;
  const examples = at(
    auth,
    'components',
    'schemas',
    'TokenResponse',
    'properties',
    'scope',
  ).examples;
  const example = Array.isArray(examples) && typeof examples[0] === 'string' ? examples[0] : ' ';
  // The spec states the separator of granted scopes only by its example.
  const expected = SCOPE_ENCODINGS.find((e) => example.includes(e.separator)) ?? SCOPE_ENCODINGS[0];
  const observed =
    typeof scope === 'string' && scopes.length >= 2
      ? SCOPE_ENCODINGS.find((e) => scopes.every((s) => scope.split(e.separator).includes(s)))
      : undefined;
  if (observed === undefined) {
    // RFC 6749 leaves the scope out of an answer that grants what was asked for.
    findings.push({
      ...granted,
      status: 'skipped',
      evidence:
        typeof scope === 'string'
          ? `${service}: the granted scopes are not the requested ones joined by a space, a comma or a pipe, so their separator cannot be seen`
          : `${service}: the token response names no granted scopes (RFC 6749 leaves them out when they are the ones asked for), so their separator cannot be seen`,
    });
  } else if (observed === expected) {
    findings.push({
      ...granted,
      status: 'confirmed',
      evidence: `${service}: the granted scopes are joined by ${observed.words}`,
    });
  } else {
    findings.push({
      ...granted,
      status: 'contradicted',
      evidence: `${service}: the granted scopes are joined by ${observed.words}; the spec's example joins them by ${expected.words}`,
      edit: [
        {
          op: 'replace',
          path: granted.pointer,
          value: `The separator of several granted scopes is not shown; observed: ${observed.words}.`,
        },
        {
          op: 'replace',
          path: '/components/schemas/TokenResponse/properties/scope/examples',
          value: [['Portal.Api', 'Portal.Api.Exposure'].join(observed.separator)],
        },
      ],
    });
  }
  return findings;
}
