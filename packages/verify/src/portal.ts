import { at, modelOf, pointer } from './documents.js';
import {
  FIELDS,
  PLACE,
  observedPlace,
  recordFieldsFinding,
  recordsPlaceFinding,
  type RecordsPlace,
} from './records.js';
import type { Observed, Run } from './run.js';
import type { Answer, Failed } from './send.js';
import { KEY_HEADERS, WRONG_KEY, checkToken, unreachable } from './token.js';
import type { PortalTarget } from './types.js';

type Json = Record<string, unknown>;
type PortalSpec = 'exposure' | 'riskengineering';

const OFFSET = '/components/parameters/Offset';
const LIMIT = '/components/parameters/Limit';
const KEY_NAME = '/components/securitySchemes/SubscriptionKey/name';

/** The checks of the common guesses of paged reads: what would confirm or contradict each. */
const KEY_CHECK = {
  spec: 'common',
  pointer: KEY_NAME,
  toldApart: true,
  expects: {
    confirm: "a read with the key in the spec's header answered, and one with a wrong key refused",
    contradict:
      'a read refused with the key there (401, 403) and answered with it in another header',
  },
} as const;
const OFFSET_CHECK = {
  spec: 'common',
  pointer: `${OFFSET}/x-upstream-gap`,
  toldApart: true,
  expects: {
    confirm:
      'pages of 2 at successive positions line up with a page of 4 as x-paging and minimum say',
    contradict: 'they line up as another unit (record or page index) or base',
  },
} as const;
const CAP_CHECK = {
  spec: 'common',
  pointer: `${LIMIT}/schema/maximum`,
  toldApart: true,
  expects: {
    confirm: 'the largest limit answered with that many records, or all there are',
    contradict: 'fewer records while more follow',
  },
} as const;

/** A stand-in for the token a mocking service never asks for. */
const MOCK_TOKEN = 'not-checked-by-the-mocking-service';

/** A paged read of a spec: its path, the parameters that page it, and where its records are. */
interface PagedRead {
  path: string;
  operationId: string;
  position: { name: string; unit: 'record' | 'page'; base: number };
  limit: { name: string; maximum: number; default: number };
  /** Where the spec says the records are, and the schema of one, as it writes it. */
  expected: { place: RecordsPlace; items: unknown };
  /** The header the spec sends the subscription key in. */
  keyHeader: string | undefined;
}

/** The paged reads of a spec, as the operation model reads them. */
function pagedReads(document: Json): PagedRead[] {
  return modelOf(document).operations.flatMap((operation) => {
    const { path, operationId, paging, parameters, security } = operation;
    if (paging === undefined) return [];
    const limit = parameters.find((p) => p.name === paging.limit)?.constraints ?? {};
    return [
      {
        path,
        operationId,
        position: {
          name: paging.position.name,
          unit: paging.position.unit === 'page' ? 'page' : 'record',
          base: paging.position.base,
        },
        limit: {
          name: paging.limit,
          maximum: limit.maximum ?? 1024,
          default: typeof limit.default === 'number' ? limit.default : 0,
        },
        expected: {
          place:
            paging.records === null
              ? { kind: 'array' }
              : { kind: 'envelope', property: paging.records },
          items: paging.item,
        },
        keyHeader: security.apiKeys.find((key) => key.in === 'header')?.name,
      },
    ];
  });
}

function describePaging(unit: 'record' | 'page', base: number): string {
  return `a ${base === 0 ? 'zero' : base === 1 ? 'one' : `${base}`}-based ${unit === 'record' ? 'record' : 'page'} index`;
}

function recordsOf(answer: Answer | Failed | undefined): string[] | undefined {
  if (answer === undefined || 'failed' in answer || answer.status >= 300 || !answer.isJson)
    return undefined;
  const place = observedPlace(answer.json);
  return 'problem' in place ? undefined : place.records.map((record) => JSON.stringify(record));
}

function same(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return (
    a !== undefined && b !== undefined && a.length === b.length && a.every((r, i) => r === b[i])
  );
}

type Probe = (
  query: Record<string, string | number>,
  why: string,
  header?: string,
  key?: string,
) => Promise<Answer | Failed>;

/**
 * Checks the token request and every paged read of the exposure or the risk engineering
 * service against its spec.
 *
 * @example
 * await checkPortal(run, 'exposure', { baseUrl, tokenUrl, credentials }, secrets);
 */
export async function checkPortal(
  run: Run,
  spec: PortalSpec,
  target: PortalTarget,
  secrets: Set<string>,
): Promise<void> {
  const service = spec === 'exposure' ? 'exposure' : 'risk engineering';
  const document = run.documents[spec] as Json;
  const sender = run.sender(target.baseUrl, target.rateLimit, document);
  const { credentials } = target;
  secrets.add(credentials.clientSecret);
  secrets.add(credentials.subscriptionKeys.primary);
  if (credentials.subscriptionKeys.secondary) secrets.add(credentials.subscriptionKeys.secondary);
  const { oauth2Scopes: scopes } = modelOf(document);
  run.begin(service);
  run.progress(`${service}: the token endpoint (key header, scopes, token response)`);
  const { token, why, accepted } = run.mock
    ? {
        ...unreachable(run, service, 'no token is requested of a mocking service'),
        token: MOCK_TOKEN,
      }
    : await checkToken(run, sender, service, target, scopes, secrets);
  const reads = pagedReads(document);
  if (token === undefined) {
    for (const read of reads)
      for (const finding of unobservedRead(document, spec, read, why)) run.add(finding);
    noteAlike(run, service, accepted);
    return;
  }
  let keyHeader = reads[0]?.keyHeader ?? KEY_HEADERS[0]!;
  const baseUrl = target.baseUrl.replace(/\/+$/, '');
  for (const [index, read] of reads.entries()) {
    const what = `${service} ${read.operationId}`;
    const get: Probe = (
      query,
      why,
      header = keyHeader,
      key = credentials.subscriptionKeys.primary,
    ) =>
      run.call(
        sender,
        { spec, path: read.path, method: 'get' },
        {
          method: 'GET',
          url: `${baseUrl}${read.path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
          headers: { authorization: `Bearer ${token}`, [header]: key, accept: 'application/json' },
        },
        `${what} ${why}`,
        (a) => a.status < 300,
      );
    run.progress(`${what}: records, paging, page cap, error body`);
    if (index === 0) {
      const data = await checkDataKey(
        run,
        service,
        keyHeader,
        credentials.subscriptionKeys.primary,
        (header, key, why) => get({ [read.limit.name]: 1 }, why, header, key),
      );
      keyHeader = data.header;
      if (data.wrongKeyAccepted) accepted.push('a wrong key on reads');
    }
    if (await checkRead(run, spec, read, what, get)) accepted.push(`any ${read.position.name}`);
  }
  noteAlike(run, service, accepted);
}

/**
 * Names a service that answered what it must refuse: a token endpoint may ignore the key, but
 * one that grants anything else, or reads that take a wrong key or any offset, tell nothing apart.
 */
function noteAlike(run: Run, service: string, accepted: readonly string[]): void {
  if (accepted.some((sign) => sign !== 'a wrong key')) run.indiscriminate(service, accepted);
}

/**
 * The finding on the subscription key header of data requests; the header that works, and
 * whether a wrong key there was answered like the right one.
 */
async function checkDataKey(
  run: Run,
  service: string,
  specHeader: string,
  key: string,
  probe: (header: string, key: string, why: string) => Promise<Answer | Failed>,
): Promise<{ header: string; wrongKeyAccepted: boolean }> {
  const base = KEY_CHECK;
  const kept = { header: specHeader, wrongKeyAccepted: false };
  const answer = await probe(specHeader, key, `with the key in ${specHeader}`);
  if ('failed' in answer) {
    run.add({ ...base, status: 'unobserved', evidence: `${service}: ${answer.failed}` });
    return kept;
  }
  if (answer.status < 300) {
    const wrong = await probe(specHeader, WRONG_KEY, `with a wrong key in ${specHeader}`);
    if ('failed' in wrong) {
      run.add({ ...base, status: 'unobserved', evidence: `${service}: ${wrong.failed}` });
      return kept;
    }
    const refused = wrong.status === 401 || wrong.status === 403;
    run.add(
      refused
        ? {
            ...base,
            status: 'confirmed',
            evidence: `${service}: a read with the key in ${specHeader} was answered ${answer.status}, one with a wrong key there ${wrong.status}`,
          }
        : {
            ...base,
            status: 'unobserved',
            evidence: `${service}: a read with a wrong key in ${specHeader} was answered ${wrong.status}, so whether the service reads the key there cannot be told`,
          },
    );
    return { header: specHeader, wrongKeyAccepted: wrong.status < 300 };
  }
  if (answer.status === 401 || answer.status === 403) {
    for (const other of KEY_HEADERS.filter((h) => h.toLowerCase() !== specHeader.toLowerCase())) {
      const retry = await probe(other, key, `with the key in ${other}`);
      // Any answer but a refusal of the key shows the key was read there.
      if (!('failed' in retry) && retry.status !== 401 && retry.status !== 403) {
        run.add({
          ...base,
          status: 'contradicted',
          evidence: `${service}: a read with the key in ${specHeader} was refused (${answer.status}); with the key in ${other} it was answered ${retry.status}`,
          edit: [
            { op: 'replace', path: KEY_NAME, value: other },
            {
              op: 'add',
              path: KEY_NAME.replace(/name$/, 'x-upstream-gap'),
              value: `The documents name ${specHeader}; observed: the services read the key from ${other}.`,
            },
          ],
        });
        return { header: other, wrongKeyAccepted: false };
      }
    }
  }
  run.add({
    ...base,
    status: 'unobserved',
    evidence: `${service}: a read with the key in ${specHeader} was answered ${answer.status}, and no other header worked`,
  });
  return kept;
}

/** Every finding of a read, unobserved for the one reason it was not read. */
function unobservedRead(
  document: Json,
  spec: PortalSpec,
  read: PagedRead,
  why: string,
): Observed[] {
  const evidence = `${read.operationId}: not read, as ${why}`;
  const { responsePointer, itemRef } = readPointers(document, read);
  return [
    { spec, pointer: `${responsePointer}/x-upstream-gap`, expects: PLACE },
    { spec, pointer: `${itemRef}/x-upstream-gap`, expects: FIELDS },
    OFFSET_CHECK,
    CAP_CHECK,
    KEY_CHECK,
  ].map((check) => ({ ...check, status: 'unobserved', evidence }));
}

/**
 * The records place, their fields, the position's unit and base, the page cap, an error body;
 * true when the read answered the same records at every position, so none was told apart.
 */
async function checkRead(
  run: Run,
  spec: PortalSpec,
  read: PagedRead,
  what: string,
  get: Probe,
): Promise<boolean> {
  const document = run.documents[spec] as Json;
  const { position, limit } = read;
  const page = (at: number, size: number) =>
    get(
      { [limit.name]: size, [position.name]: at },
      `${position.name}=${at}, ${limit.name}=${size}`,
    );
  const answers: Answer[] = [];
  const keep = (answer: Answer | Failed) => {
    if (!('failed' in answer) && answer.status < 300 && answer.isJson) answers.push(answer);
    return answer;
  };
  // Three pages of two at positions 0, 1 and 2, and four records from the first position.
  const at0 = keep(await page(0, 2));
  const at1 = keep(await page(1, 2));
  const at2 = keep(await page(2, 2));
  const [r0, r1, r2] = [recordsOf(at0), recordsOf(at1), recordsOf(at2)];
  const full = (records: string[] | undefined): records is string[] =>
    records !== undefined && records.length === 2;
  const failed = [at0, at1, at2].find((answer) => 'failed' in answer);
  const everywhere = r0 !== undefined && r0.length > 0 && same(r0, r1) && same(r1, r2);
  const base = everywhere
    ? undefined
    : full(r0) && full(r1) && !same(r0, r1)
      ? 0
      : full(r1) && (r0 === undefined || same(r0, r1))
        ? 1
        : undefined;
  let unit: 'record' | 'page' | undefined;
  // A collection of fewer than 4 records cannot show how the position counts.
  const most = Math.max(0, ...[r0, r1, r2].map((records) => records?.length ?? 0));
  const anyRecords = [r0, r1, r2].some((records) => records !== undefined);
  let tooFew = anyRecords && failed === undefined && !everywhere && base === undefined && most < 2;
  let pagingEvidence = tooFew
    ? `${what}: the collection holds ${most} record${most === 1 ? '' : 's'}, too few to show how the position counts`
    : everywhere
      ? `${what}: ${position.name} 0, 1 and 2 answered the same ${r0.length === 1 ? 'record' : `${r0.length} records`}, so the position is not told apart`
      : failed === undefined
        ? `${what}: pages of 2 at ${position.name} 0, 1 and 2 did not all hold records`
        : `${what}: ${failed.failed}`;
  if (base !== undefined) {
    const wide = recordsOf(keep(await page(base, 4)));
    const next = base === 0 ? r1 : r2;
    if (wide !== undefined && wide.length === 4 && full(next)) {
      if (same(next, wide.slice(1, 3))) unit = 'record';
      else if (same(next, wide.slice(2, 4))) unit = 'page';
    }
    tooFew = wide !== undefined && wide.length < 4;
    const atZero =
      base === 0
        ? 'held the first records'
        : r0 === undefined
          ? 'was refused'
          : 'repeated position 1';
    pagingEvidence = tooFew
      ? `${what}: ${limit.name}=4 at ${position.name}=${base} answered ${wide!.length} records, too few to show how the position counts`
      : unit === undefined
        ? `${what}: pages at ${position.name} ${base} and ${base + 1} do not line up with 4 records from ${base}, so the data may have changed between calls`
        : `${what}: ${position.name}=0 ${atZero}; ${position.name}=${base + 1} with ${limit.name}=2 answered records ${unit === 'record' ? '2–3' : '3–4'} of ${position.name}=${base} with ${limit.name}=4: ${describePaging(unit, base)}`;
  }
  const paging = pagingFinding(position, unit, base, pagingEvidence, tooFew);
  run.add(paging);

  // A page cap below the largest limit: fewer records than asked while more exist.
  if (unit === undefined || base === undefined) {
    run.add({
      ...CAP_CHECK,
      status: paging.status === 'skipped' ? 'skipped' : 'unobserved',
      evidence: `${what}: not judged, as the position was not`,
    });
  } else {
    const largest = keep(await page(base, limit.maximum));
    const count = recordsOf(largest)?.length;
    if (count !== undefined && count > 0 && count < limit.maximum) {
      const more = recordsOf(
        keep(unit === 'record' ? await page(base + count, 1) : await page(base + 1, limit.maximum)),
      );
      run.add(capFinding(what, limit, count, more !== undefined && more.length > 0));
    } else {
      run.add({
        ...CAP_CHECK,
        status: count === limit.maximum ? 'confirmed' : count === 0 ? 'skipped' : 'unobserved',
        evidence: `${what}: ${limit.name}=${limit.maximum} answered ${count ?? 'no'} records`,
      });
    }
  }

  // The error body of a deliberate bad request: a date that is not one.
  await get(
    { modifiedSince: 'not-a-date', [limit.name]: 1 },
    'with modifiedSince=not-a-date (deliberately bad)',
  );

  const { responsePointer, schemaPointer, media, itemRef } = readPointers(document, read);
  const { expected } = read;
  const { finding, records } = recordsPlaceFinding(
    {
      spec,
      marker: `${responsePointer}/x-upstream-gap`,
      schema: schemaPointer,
      examples:
        media.examples === undefined
          ? undefined
          : `${responsePointer}/content/application~1json/examples`,
      markerInSchema: false,
    },
    at(media, 'examples'),
    expected,
    answers.map((a) => a.json),
    what,
  );
  run.add(finding);
  run.add(
    recordFieldsFinding(
      document,
      { spec, marker: `${itemRef}/x-upstream-gap`, schema: itemRef },
      expected.items,
      records,
      what,
      answers.length > 0,
    ),
  );
  return everywhere;
}

/** Where a read's answer is in the spec as written: its response, schema, media and record. */
function readPointers(document: Json, read: PagedRead) {
  const responses = at(document, 'paths', read.path, 'get', 'responses');
  const successKey = Object.keys(responses).find((key) => key.startsWith('2')) ?? '200';
  const responsePointer = pointer('paths', read.path, 'get', 'responses', successKey);
  const schemaPointer = `${responsePointer}/content/application~1json/schema`;
  const media = at(
    document,
    'paths',
    read.path,
    'get',
    'responses',
    successKey,
    'content',
    'application/json',
  );
  const items = read.expected.items as Json | undefined;
  const itemRef =
    typeof items?.$ref === 'string' ? items.$ref.replace(/^#/, '') : `${schemaPointer}/items`;
  return { responsePointer, schemaPointer, media, itemRef };
}

function pagingFinding(
  position: PagedRead['position'],
  unit: 'record' | 'page' | undefined,
  base: number | undefined,
  evidence: string,
  tooFew: boolean,
): Observed {
  const where = OFFSET_CHECK;
  if (unit === undefined || base === undefined)
    return { ...where, status: tooFew ? 'skipped' : 'unobserved', evidence };
  if (unit === position.unit && base === position.base)
    return { ...where, status: 'confirmed', evidence };
  return {
    ...where,
    status: 'contradicted',
    evidence: `${evidence}; the spec says ${describePaging(position.unit, position.base)}`,
    edit: [
      { op: 'replace', path: `${OFFSET}/x-paging`, value: unit === 'record' ? 'offset' : 'page' },
      { op: 'replace', path: `${OFFSET}/schema/minimum`, value: base },
      { op: 'replace', path: `${OFFSET}/schema/default`, value: base },
      {
        op: 'replace',
        path: `${OFFSET}/x-upstream-gap`,
        value: `The unit of offset and whether it is zero or one based are not shown; observed: ${describePaging(unit, base)}.`,
      },
    ],
  };
}

function capFinding(
  what: string,
  limit: PagedRead['limit'],
  count: number,
  more: boolean,
): Observed {
  const where = CAP_CHECK;
  if (!more) {
    return {
      ...where,
      status: 'confirmed',
      evidence: `${what}: ${limit.name}=${limit.maximum} answered all ${count} records there are`,
    };
  }
  return {
    ...where,
    status: 'contradicted',
    evidence: `${what}: ${limit.name}=${limit.maximum} answered ${count} records although more follow: pages are capped at ${count}`,
    edit: [
      { op: 'replace', path: `${LIMIT}/schema/maximum`, value: count },
      // A default above the cap would be refused by the spec it sits in.
      ...(limit.default > count
        ? [{ op: 'replace' as const, path: `${LIMIT}/schema/default`, value: count }]
        : []),
      {
        op: 'add',
        path: `${LIMIT}/x-upstream-gap`,
        value: `The document gives ${limit.maximum} as the maximum; observed: at most ${count} records per call.`,
      },
    ],
  };
}
