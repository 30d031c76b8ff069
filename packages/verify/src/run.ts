import { at, mediaSchema, pointer, responseKey, tracingHeadersOf, validate } from './documents.js';
import type { SpecDocuments } from './documents.js';
import {
  createSender,
  type Answer,
  type Failed,
  type Sender,
  type Sent,
  type Transport,
} from './send.js';
import { inferSchema } from './infer.js';
import type { Expectation, Finding, Pace, SpecEdit, SpecName, VerifyOptions } from './types.js';

type Json = Record<string, unknown>;
type OperationSpec = Exclude<SpecName, 'common'>;

/**
 * What a check found, and whether it needs the environment to tell requests apart (a wrong key
 * from the right one, one offset from another): such a finding is judged only where it does.
 */
export type Observed = Finding & { toldApart?: boolean };

/** A finding with the service whose answers it rests on. */
interface Kept {
  finding: Observed;
  service: string;
}

/** One answer of an operation that no dedicated check judged: checked against its response. */
interface Observation {
  service: string;
  spec: OperationSpec;
  path: string;
  method: string;
  why: string;
  answer: Answer;
}

/**
 * The findings of one `verifyUpstream` run, and the answers still to be checked.
 *
 * @example
 * const run = new Run(DOCUMENTS, { signal });
 * const answer = await run.call(sender, { spec: 'exposure', path, method: 'get' }, request, 'a page');
 * const findings = run.results();
 */
export class Run {
  readonly #kept: Kept[] = [];
  readonly #observations: Observation[] = [];
  /** Why each service that answers the same whatever it is sent cannot tell requests apart. */
  readonly #alike = new Map<string, string>();
  /** What each service answered as it answered the real requests: a wrong key, any offset, … */
  readonly #signs = new Map<string, string[]>();
  #service = '';
  readonly #options: Pick<VerifyOptions, 'signal' | 'onProgress' | 'mock'> & Transport;
  /** The specs the answers are checked against. */
  readonly documents: SpecDocuments;

  constructor(
    documents: SpecDocuments,
    options: Pick<VerifyOptions, 'signal' | 'onProgress' | 'mock'> & Transport,
  ) {
    this.documents = documents;
    this.#options = options;
  }

  /** The checks of `service` begin: what they find and send from now on is its. */
  begin(service: string): void {
    this.#service = service;
    if (this.#options.mock === true) {
      this.#alike.set(
        service,
        `${service} is a mocking service (mock), which answers the same whatever it is sent`,
      );
    }
  }

  /** Whether the environment is a mocking service (`mock`), which is asked for no token. */
  get mock(): boolean {
    return this.#options.mock === true;
  }

  /** Why the service being checked cannot tell requests apart, if it cannot. */
  get answersAlike(): string | undefined {
    return this.#alike.get(this.#service);
  }

  /**
   * The sender of one service's requests (`baseUrl` is its address), at `pace`, setting the
   * tracing headers its spec (`document`) names.
   */
  sender(
    baseUrl: string,
    pace: Pace | undefined,
    document: Readonly<Record<string, unknown>>,
  ): Sender {
    const transport = { ...this.#options, tracingHeaders: tracingHeadersOf(document) };
    return createSender(baseUrl, pace ?? 'bronze', transport, this.#options.signal);
  }

  /** Tells the caller which check begins (`onProgress`). */
  progress(check: string): void {
    this.#options.onProgress?.(check);
  }

  /**
   * Names a service that answered requests sent to be refused or told apart (`signs`: a wrong
   * key, any offset, …) as it answered the real ones.
   */
  indiscriminate(service: string, signs: readonly string[]): void {
    // A service said to be a mocking service is named so already.
    if (signs.length === 0 || this.mock) return;
    const all = [...(this.#signs.get(service) ?? []), ...signs];
    this.#signs.set(service, all);
    this.#alike.set(
      service,
      `${service} answered ${all.join(', ')} as it answered the real requests, as a mocking service does`,
    );
  }

  /** What the answers say of the environment as a whole, one line each. */
  get notes(): string[] {
    return [...this.#alike.values()].map(
      (alike) =>
        `${alike}: nothing it could not tell apart is judged, and nothing it answered is written to a spec`,
    );
  }

  add(finding: Observed): void {
    this.#kept.push({ finding, service: this.#service });
  }

  /**
   * Every finding, those of the answers kept by `call` among them: of a service that answers
   * the same whatever it is sent, one that needs requests told apart is unobserved, and none
   * carries an edit.
   */
  results(): Finding[] {
    return [...this.#kept, ...this.#answerFindings()].map(({ finding, service }) => {
      const { toldApart, edit, ...rest } = finding;
      const alike = this.#alike.get(service);
      if (alike === undefined) return edit === undefined ? rest : { ...rest, edit };
      if (toldApart === true && (rest.status === 'confirmed' || rest.status === 'contradicted')) {
        return {
          ...rest,
          status: 'unobserved',
          evidence: `${rest.evidence}\nnot judged: ${alike}`,
        };
      }
      if (edit === undefined) return rest;
      return {
        ...rest,
        evidence: `${rest.evidence}\nno edit: ${alike}, so nothing it answered is written to a spec`,
      };
    });
  }

  /**
   * Sends a request of an operation and keeps its answer for the check of every answer against
   * the spec, unless `judged` says a dedicated check judges it; a request without an answer
   * gives why, in one line, without the name of the request (the caller's to add).
   */
  async call(
    sender: Sender,
    operation: { spec: OperationSpec; path: string; method: string },
    request: Sent,
    why: string,
    judged: (answer: Answer) => boolean = () => false,
  ): Promise<Answer | Failed> {
    const answer = await sender.send(request);
    if (!('failed' in answer) && !judged(answer))
      this.#observations.push({ service: this.#service, ...operation, why, answer });
    return answer;
  }

  /** Every answer kept by `call`, checked against the response the spec documents for it. */
  #answerFindings(): Kept[] {
    const groups = new Map<string, Observation[]>();
    for (const observation of this.#observations) {
      const operation = at(
        this.documents[observation.spec],
        'paths',
        observation.path,
        observation.method,
      );
      const key = responseKey(operation, observation.answer.status);
      const where =
        key === undefined
          ? pointer('paths', observation.path, observation.method, 'responses')
          : pointer('paths', observation.path, observation.method, 'responses', key);
      const id = `${observation.service} ${observation.spec} ${where}`;
      groups.set(id, [...(groups.get(id) ?? []), observation]);
    }
    return [...groups.values()].map((group) => ({
      finding: judgeAnswers(this.documents, group),
      service: group[0]!.service,
    }));
  }
}

function seen(group: readonly Observation[]): string {
  return group.map((o) => `${o.answer.status} to ${o.why}`).join('; ');
}

/** The name of the error body schema an edit adds to each spec: `*ErrorBody`, as the lint asks. */
const ERROR_BODY_NAMES: Readonly<Record<OperationSpec, string>> = {
  auth: 'TokenErrorBody',
  exposure: 'ExposureErrorBody',
  riskengineering: 'RiskEngineeringErrorBody',
  liability: 'LiabilityErrorBody',
  approvals: 'ApprovalsErrorBody',
};

/**
 * The edit that documents what `group` (answers of one status) showed: a response of its own
 * whose body is a named `*ErrorBody` schema inferred from the answers, the first as its example.
 */
function responseEdit(group: readonly Observation[], replace: boolean): SpecEdit[] {
  const [first] = group as [Observation];
  const bodies = group.filter((o) => o.answer.isJson).map((o) => o.answer.json);
  const status = String(first.answer.status);
  const name = ERROR_BODY_NAMES[first.spec];
  const response: Json = {
    description: `The answer observed to ${first.why}.`,
    'x-upstream-gap': `Not shown in the documents; observed: status ${status}${
      bodies.length > 0 ? ` with the body ${name} describes` : ' without a JSON body'
    }.`,
  };
  const edits: SpecEdit[] = [];
  if (bodies.length > 0) {
    edits.push({
      op: 'add',
      path: pointer('components', 'schemas', name),
      value: {
        description: 'The error body the service answers with.',
        'x-upstream-gap': 'Not shown in the documents; inferred from the answers observed.',
        ...inferSchema(bodies, { required: true }),
      },
    });
    response.content = {
      'application/json': {
        schema: { $ref: `#/components/schemas/${name}` },
        // Every body of the specs has an example; the first answer is a real one.
        examples: { observed: { value: bodies[0] } },
      },
    };
  }
  edits.push({
    op: replace ? 'replace' : 'add',
    path: pointer('paths', first.path, first.method, 'responses', status),
    value: response,
  });
  return edits;
}

/** What the check of a response expects. */
const ANSWERS: Expectation = {
  confirm: 'each answer meets the response its status matches',
  contradict: 'an answer that breaks it, or a status the spec documents no response for',
};

function judgeAnswers(documents: SpecDocuments, group: readonly Observation[]): Finding {
  const [first] = group as [Observation];
  const document = documents[first.spec] as Json;
  const operation = at(document, 'paths', first.path, first.method);
  const key = responseKey(operation, first.answer.status);
  const statuses = [...new Set(group.map((o) => o.answer.status))];
  if (key === undefined) {
    return {
      spec: first.spec,
      pointer: pointer('paths', first.path, first.method, 'responses'),
      status: 'contradicted',
      expects: ANSWERS,
      evidence: `${first.method.toUpperCase()} ${first.path} answered ${seen(group)}; the spec documents no response for ${statuses.join(', ')}`,
      edit: statuses.length === 1 ? responseEdit(group, false) : undefined,
    };
  }
  const where = pointer('paths', first.path, first.method, 'responses', key);
  const responses = (operation.responses ?? {}) as Json;
  const schema = mediaSchema(document, responses[key]);
  const problems = [
    ...new Set(
      group.flatMap((o) => {
        if (schema === undefined) return [];
        if (!o.answer.isJson) return [`the body of ${o.answer.status} is not JSON`];
        return validate(document, schema, o.answer.json);
      }),
    ),
  ];
  if (problems.length === 0) {
    return {
      spec: first.spec,
      pointer: where,
      status: 'confirmed',
      expects: ANSWERS,
      evidence: `${first.method.toUpperCase()} ${first.path} answered ${seen(group)}, as response ${key} documents`,
    };
  }
  // A success body is the subject of the dedicated checks; an error body is documented anew.
  const isError = first.answer.status >= 400 && statuses.length === 1;
  return {
    spec: first.spec,
    pointer: where,
    status: 'contradicted',
    expects: ANSWERS,
    evidence: `${first.method.toUpperCase()} ${first.path} answered ${seen(group)}; against response ${key}: ${problems.slice(0, 6).join('; ')}`,
    edit: isError ? responseEdit(group, key === String(first.answer.status)) : undefined,
  };
}
