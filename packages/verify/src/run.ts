import { at, mediaSchema, pointer, responseKey, validate } from './documents.js';
import type { SpecDocuments } from './documents.js';
import type { Answer, Exchanger, Sent } from './exchange.js';
import { inferSchema } from './infer.js';
import type { Finding, SpecEdit, SpecName } from './types.js';

type Json = Record<string, unknown>;
type OperationSpec = Exclude<SpecName, 'common'>;

/** One answer of an operation that no dedicated check judged: checked against its response. */
interface Observation {
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
 * const run = new Run(DOCUMENTS, signal);
 * const answer = await run.call(exchanger, { spec: 'exposure', path, method: 'get' }, request, 'a page');
 * const findings = [...run.findings, ...run.answerFindings()];
 */
export class Run {
  readonly findings: Finding[] = [];
  readonly #observations: Observation[] = [];
  readonly signal: AbortSignal | undefined;
  /** The specs the answers are checked against. */
  readonly documents: SpecDocuments;

  constructor(documents: SpecDocuments, signal: AbortSignal | undefined) {
    this.documents = documents;
    this.signal = signal;
  }

  add(finding: Finding): void {
    this.findings.push(finding);
  }

  /**
   * Sends a request of an operation and keeps its answer for the check of every answer against
   * the spec, unless `judged` says a dedicated check judges it; a failed exchange is `undefined`
   * and `failed` tells why.
   */
  async call(
    exchanger: Exchanger,
    operation: { spec: OperationSpec; path: string; method: string },
    request: Sent,
    why: string,
    judged: (answer: Answer) => boolean = () => false,
  ): Promise<Answer | { failed: string }> {
    let answer: Answer;
    try {
      answer = await exchanger.send(request);
    } catch (error) {
      this.signal?.throwIfAborted();
      return {
        failed: `${why}: no answer (${error instanceof Error ? error.message : String(error)})`,
      };
    }
    if (!judged(answer)) this.#observations.push({ ...operation, why, answer });
    return answer;
  }

  /** Every answer kept by `call`, checked against the response the spec documents for it. */
  answerFindings(): Finding[] {
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
      const id = `${observation.spec} ${where}`;
      groups.set(id, [...(groups.get(id) ?? []), observation]);
    }
    return [...groups.values()].map((group) => judgeAnswers(this.documents, group));
  }
}

function seen(group: readonly Observation[]): string {
  return group.map((o) => `${o.answer.status} to ${o.why}`).join('; ');
}

/** The edit that documents what `group` (answers of one status) showed, as its own response. */
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
      evidence: `${first.method.toUpperCase()} ${first.path} answered ${seen(group)}, as response ${key} documents`,
    };
  }
  // A success body is the subject of the dedicated checks; an error body is documented anew.
  const isError = first.answer.status >= 400 && statuses.length === 1;
  return {
    spec: first.spec,
    pointer: where,
    status: 'contradicted',
    evidence: `${first.method.toUpperCase()} ${first.path} answered ${seen(group)}; against response ${key}: ${problems.slice(0, 6).join('; ')}`,
    edit: isError ? responseEdit(group, key === String(first.answer.status)) : undefined,
  };
}
