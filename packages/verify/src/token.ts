import { at, mediaSchema, pointer, validate } from './documents.js';
import type { Answer, Exchanger } from './exchange.js';
import type { Run } from './run.js';
import type { Finding, PortalCredentials } from './types.js';

type Json = Record<string, unknown>;

const TOKEN_PATH = '/login/connect/token';
const TOKEN = { spec: 'auth', path: TOKEN_PATH, method: 'post' } as const;
const FORM = 'application/x-www-form-urlencoded';
const ENCODING_POINTER = pointer(
  'paths',
  TOKEN_PATH,
  'post',
  'requestBody',
  'content',
  FORM,
  'encoding',
  'scope',
);
const SCOPE_MARKER = '/components/schemas/TokenRequest/properties/scope/x-upstream-gap';
const KEY_MARKER = '/components/securitySchemes/subscriptionKey/x-upstream-gap';

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

function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/**
 * `Basic base64(urlencode(id):urlencode(secret))`, as RFC 6749 §2.3.1 asks of a token request.
 *
 * @example
 * tokenBasic({ clientId: 'app', clientSecret: 'a b' }); // 'Basic YXBwOmErYg=='
 */
export function tokenBasic(credentials: { clientId: string; clientSecret: string }): string {
  const pair = `${formEncode(credentials.clientId)}:${formEncode(credentials.clientSecret)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

function specEncoding(auth: Json): ScopeEncoding {
  const encoding = at(
    auth,
    'paths',
    TOKEN_PATH,
    'post',
    'requestBody',
    'content',
    FORM,
    'encoding',
    'scope',
  );
  return (
    SCOPE_ENCODINGS.find(
      (e) => e.style === encoding.style && (encoding.explode ?? e.explode) === e.explode,
    ) ?? SCOPE_ENCODINGS[0]
  );
}

function oauthError(answer: Answer): string | undefined {
  const body = answer.json as Json | undefined;
  return typeof body?.error === 'string' ? body.error : undefined;
}

/** An access token of a portal service, found with the checks of the token endpoint's guesses. */
export interface TokenOutcome {
  token: string | undefined;
  why: string;
}

/**
 * Requests a token of `scopes` the way the auth spec says, and checks its guesses on the way:
 * the scope separator, the subscription key header, the response's fields and lifetime, the
 * granted scope's separator, and an error body.
 *
 * @example
 * const { token } = await checkToken(run, exchanger, 'exposure', target, ['Portal.Api', 'Portal.Api.Exposure'], secrets);
 */
export async function checkToken(
  run: Run,
  exchanger: Exchanger,
  service: string,
  target: { tokenUrl: string; credentials: PortalCredentials },
  scopes: readonly string[],
  secrets: Set<string>,
): Promise<TokenOutcome> {
  const { credentials, tokenUrl } = target;
  const auth = run.documents.auth as Json;
  const keyScheme = at(auth, 'components', 'securitySchemes', 'subscriptionKey');
  const specHeader = typeof keyScheme.name === 'string' ? keyScheme.name : KEY_HEADERS[0]!;
  const basic = tokenBasic(credentials);
  // The header, its base64 and the pair it encodes: a server may echo any of them.
  secrets.add(basic);
  secrets.add(basic.slice(6));
  secrets.add(Buffer.from(basic.slice(6), 'base64').toString('utf8'));
  // The secret as the pair carries it, form-encoded.
  secrets.add(formEncode(credentials.clientSecret));
  const request = (
    encoding: ScopeEncoding,
    header: string,
    key: string,
    grant = 'client_credentials',
  ) => ({
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
  });
  const preferred = specEncoding(auth);
  const send = (encoding: ScopeEncoding, header: string, why: string) =>
    run.call(
      exchanger,
      TOKEN,
      request(encoding, header, credentials.subscriptionKeys.primary),
      why,
      (a) => a.status === 200,
    );

  // 1. The key header: the spec's, else the first a gateway commonly reads that works.
  let header = specHeader;
  let answer = await send(preferred, header, `${service}'s token request`);
  if ('failed' in answer) return unreachable(run, answer.failed);
  if (answer.status === 401) {
    for (const other of KEY_HEADERS.filter((h) => h.toLowerCase() !== specHeader.toLowerCase())) {
      const retry = await send(
        preferred,
        other,
        `${service}'s token request with the key in ${other}`,
      );
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
      const retry = await send(
        other,
        header,
        `${service}'s token request with the scopes joined by ${other.words}`,
      );
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

  run.add(keyHeaderFinding(service, specHeader, header, answer.status));
  run.add(
    scopeFinding(service, preferred, encoding, refusedScopes, answer.status, oauthError(answer)),
  );
  for (const finding of tokenResponseFindings(auth, service, ok ? body : undefined, scopes))
    run.add(finding);

  if (ok) {
    // 3. Does the token endpoint read the key from that header at all? A wrong key tells.
    const wrong = await run.call(
      exchanger,
      TOKEN,
      request(encoding ?? preferred, header, WRONG_KEY),
      `${service}'s token request with a wrong key in ${header}`,
    );
    if (!('failed' in wrong) && wrong.status < 300) {
      run.add({
        spec: 'auth',
        pointer: KEY_MARKER,
        status: 'unobserved',
        evidence: `${service}: the token endpoint granted a token with a wrong key in ${header}, so it does not check a key there`,
      });
    }
    // 4. The error body of a deliberate bad request: a grant type the endpoint does not offer.
    await run.call(
      exchanger,
      TOKEN,
      request(encoding ?? preferred, header, credentials.subscriptionKeys.primary, 'password'),
      `${service}'s token request with grant_type password (deliberately refused)`,
    );
  }
  return {
    token,
    why:
      token === undefined
        ? `the token endpoint answered ${answer.status} to ${service}'s token request`
        : '',
  };
}

function unreachable(run: Run, why: string): TokenOutcome {
  run.add({ spec: 'auth', pointer: SCOPE_MARKER, status: 'unobserved', evidence: why });
  return { token: undefined, why };
}

function keyHeaderFinding(
  service: string,
  specHeader: string,
  header: string,
  status: number,
): Finding {
  const base = { spec: 'auth' as const, pointer: KEY_MARKER };
  if (status === 401) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `${service}: the token endpoint refused the credentials with the key in each of ${KEY_HEADERS.join(', ')}: the client ID, secret or key may be wrong`,
    };
  }
  if (header === specHeader) {
    return {
      ...base,
      status: 'confirmed',
      evidence: `${service}: the token endpoint accepted the key in ${header} (answered ${status})`,
    };
  }
  return {
    ...base,
    status: 'contradicted',
    evidence: `${service}: the token endpoint refused the key in ${specHeader} (401) and accepted it in ${header}`,
    edit: [
      { op: 'replace', path: '/components/securitySchemes/subscriptionKey/name', value: header },
      {
        op: 'replace',
        path: KEY_MARKER,
        value: `The document does not name the header of the subscription key on the token request; observed: ${header}.`,
      },
    ],
  };
}

function scopeFinding(
  service: string,
  preferred: ScopeEncoding,
  found: ScopeEncoding | undefined,
  refused: boolean,
  status: number,
  error: string | undefined,
): Finding {
  const base = { spec: 'auth' as const, pointer: SCOPE_MARKER };
  if (found === undefined) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `${service}: the token endpoint refused the scopes joined by each of ${SCOPE_ENCODINGS.map((e) => e.words).join(', ')} with invalid_scope: the client may not be registered for them`,
    };
  }
  if (status !== 200) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `${service}: the token endpoint answered ${status}${error ? ` (${error})` : ''}, so the scopes were not judged`,
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
        path: ENCODING_POINTER,
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
): Finding[] {
  const fields = {
    spec: 'auth' as const,
    pointer: '/components/schemas/TokenResponse/x-upstream-gap',
  };
  const lifetime = {
    spec: 'auth' as const,
    pointer: '/components/schemas/TokenResponse/properties/expires_in/x-upstream-gap',
  };
  const granted = {
    spec: 'auth' as const,
    pointer: '/components/schemas/TokenResponse/properties/scope/x-upstream-gap',
  };
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
  const findings: Finding[] = [
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
    findings.push({
      ...granted,
      status: 'unobserved',
      evidence:
        typeof scope === 'string'
          ? `${service}: the granted scopes are not the requested ones joined by a space, a comma or a pipe`
          : `${service}: the token response names no granted scopes`,
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
