import { at, mediaSchema, modelOf, validate } from './documents.js';
import { FIELDS, recordFieldsFinding } from './records.js';
import type { Observed, Run } from './run.js';
import type { Answer, Failed } from './send.js';
import type { ApprovalsTarget, Finding } from './types.js';

type Json = Record<string, unknown>;

const PATH = '/approvals';
const OPERATION = { spec: 'approvals', path: PATH, method: 'get' } as const;
const EMPLOYEE_MARKER = '/paths/~1approvals/get/parameters/0/x-upstream-gap';
const RESULT = '/components/schemas/ApprovalsResult';
const ITEM = '/components/schemas/ApprovalItem';
const EMPLOYEE_CHECK = {
  spec: 'approvals',
  pointer: EMPLOYEE_MARKER,
  toldApart: true,
  expects: {
    confirm: 'approvals without employeeNumber refused with a 4xx',
    contradict: 'approvals without it answered with a 2xx',
  },
} as const;
/** A client secret no application has: made up, not a secret. */
const WRONG_SECRET = 'not-a-client-secret';
const LISTS = [
  'requisitionApprovals',
  'invoiceApprovals',
  'expenseReportApprovals',
  'contractApprovals',
];

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the approvals read: what an omitted `employeeNumber` does, and (given an employee) the
 * answer's fields and its approval items' fields, at the pace of the tier.
 *
 * @example
 * await checkApprovals(run, { baseUrl, credentials, tier: 'silver', employeeNumber: '100234' }, secrets);
 */
export async function checkApprovals(
  run: Run,
  target: ApprovalsTarget,
  secrets: Set<string>,
): Promise<void> {
  const document = run.documents.approvals as Json;
  const sender = run.sender(target.baseUrl, target.tier, document);
  secrets.add(target.credentials.clientSecret);
  const keys = modelOf(document).operations.find((o) => o.path === PATH)?.security.apiKeys ?? [];
  const header = (scheme: string, fallback: string) =>
    keys.find((key) => key.scheme === scheme)?.name ?? fallback;
  const idHeader = header('clientId', 'client_id');
  const secretHeader = header('clientSecret', 'client_secret');
  const baseUrl = target.baseUrl.replace(/\/+$/, '');
  const get = (
    query: string,
    why: string,
    judged?: (status: number) => boolean,
    secret = target.credentials.clientSecret,
  ) =>
    run.call(
      sender,
      OPERATION,
      {
        method: 'GET',
        url: `${baseUrl}${PATH}${query}`,
        headers: {
          [idHeader]: target.credentials.clientId,
          [secretHeader]: secret,
          accept: 'application/json',
        },
      },
      why,
      (a) => judged?.(a.status) ?? false,
    );

  run.begin('approvals');
  run.progress('approvals: an omitted employeeNumber, and the approvals of an employee');
  const omitted = await get(
    '',
    'approvals without employeeNumber (deliberately incomplete)',
    (s) => s < 300,
  );
  // A service that answers a wrong secret as the right one tells no request from another.
  const control = await get(
    '',
    'approvals with a wrong client secret (deliberately refused)',
    (s) => s < 300,
    WRONG_SECRET,
  );
  if (!('failed' in control) && control.status < 300)
    run.indiscriminate('approvals', ['a wrong client secret']);
  if (target.employeeNumber === undefined) {
    run.add(omittedFinding(omitted, false));
    const evidence = 'approvals: no employeeNumber given, so no approvals were read';
    for (const marker of [RESULT, ITEM])
      run.add({
        spec: 'approvals',
        pointer: `${marker}/x-upstream-gap`,
        expects: FIELDS,
        status: 'skipped',
        evidence,
      });
    return;
  }
  const answer = await get(
    `?${new URLSearchParams({ employeeNumber: target.employeeNumber })}`,
    'approvals of the given employee',
    (s) => s < 300,
  );
  // An answer without employeeNumber that is the employee's, word for word, tells nothing.
  const same = !('failed' in omitted) && !('failed' in answer) && omitted.text === answer.text;
  run.add(omittedFinding(omitted, same));
  if (same) run.indiscriminate('approvals', ['no employeeNumber']);
  if ('failed' in answer || answer.status >= 300 || !answer.isJson) {
    const seen = 'failed' in answer ? `: ${answer.failed}` : ` answered ${answer.status}`;
    for (const marker of [RESULT, ITEM]) {
      run.add({
        spec: 'approvals',
        pointer: `${marker}/x-upstream-gap`,
        expects: FIELDS,
        status: 'unobserved',
        evidence: `approvals of the given employee${seen}`,
      });
    }
    return;
  }
  const schema = mediaSchema(document, at(document, 'paths', PATH, 'get', 'responses', '200'));
  const body = answer.json;
  const result = isRecord(body) ? body : {};
  const top = { ...result };
  for (const list of LISTS) delete top[list];
  const problems = isRecord(body)
    ? validate(document, schema, body)
    : ['the answer is not an object'];
  const findings: Finding[] = [];
  if (problems.length > 0) {
    findings.push({
      spec: 'approvals',
      pointer: `${RESULT}/x-upstream-gap`,
      expects: FIELDS,
      status: 'contradicted',
      evidence: `approvals: ${problems.join('; ')}`,
    });
  } else {
    findings.push(
      recordFieldsFinding(
        document,
        { spec: 'approvals', marker: `${RESULT}/x-upstream-gap`, schema: RESULT },
        schema,
        [top],
        'approvals answer',
        true,
      ),
    );
  }
  const items = LISTS.flatMap((list) =>
    Array.isArray(result[list]) ? (result[list] as unknown[]) : [],
  );
  const bare = items.filter(isRecord).map((item) => {
    const rest = { ...item };
    for (const key of Object.keys(rest)) if (key.endsWith('Details')) delete rest[key];
    return rest;
  });
  findings.push(
    recordFieldsFinding(
      document,
      { spec: 'approvals', marker: `${ITEM}/x-upstream-gap`, schema: ITEM },
      { $ref: `#${ITEM}` },
      bare,
      'approval items',
      true,
    ),
  );
  for (const finding of findings) run.add(finding);
}

function omittedFinding(answer: Answer | Failed, same: boolean): Observed {
  const base = EMPLOYEE_CHECK;
  if ('failed' in answer) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `approvals without employeeNumber: ${answer.failed}`,
    };
  }
  if (same) {
    return {
      ...base,
      status: 'unobserved',
      evidence: `approvals without employeeNumber was answered ${answer.status}, word for word as with one, so the parameter is not told apart`,
    };
  }
  if (
    answer.status >= 400 &&
    answer.status < 500 &&
    answer.status !== 401 &&
    answer.status !== 429
  ) {
    return {
      ...base,
      status: 'confirmed',
      evidence: `approvals without employeeNumber was refused with ${answer.status}, so it is required`,
    };
  }
  if (answer.status < 300) {
    return {
      ...base,
      status: 'contradicted',
      evidence: `approvals without employeeNumber was answered ${answer.status}, where the spec requires it`,
      edit: [
        { op: 'replace', path: '/paths/~1approvals/get/parameters/0/required', value: false },
        {
          op: 'replace',
          path: EMPLOYEE_MARKER,
          value: `The document does not say what happens when employeeNumber is omitted; observed: the service answers ${answer.status}.`,
        },
      ],
    };
  }
  return {
    ...base,
    status: 'unobserved',
    evidence: `approvals without employeeNumber was answered ${answer.status}`,
  };
}
