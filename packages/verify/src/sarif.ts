import { applySpecEdits, locate } from './spec-edits.js';
import type { Finding, SpecName } from './types.js';

/** The OASIS schema of SARIF 2.1.0 (errata 01), which the report names. */
const SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The one rule of the report: a guess of a spec that the environment's answers contradict. */
const RULE = {
  id: 'contradicted-guess',
  name: 'ContradictedGuess',
  shortDescription: { text: 'A guess of a spec that the environment contradicts' },
  fullDescription: {
    text: 'The specs mark each detail the upstream documents do not show with x-upstream-gap; partner-apis verify sent requests that tell the guess apart from its alternatives, and the answers contradict it. The fix is the spec edit that makes the spec true.',
  },
  defaultConfiguration: { level: 'error' },
  helpUri:
    'https://github.com/partner-apis/partner-apis/blob/main/docs/updating-a-spec.md#first-contact-when-credentials-for-an-environment-arrive',
} as const;

/** The text of a spec, and its address relative to the repository's root (`specs/auth/openapi.yaml`). */
export interface SpecFile {
  uri: string;
  text: string;
}

/** The edit of a finding as one replacement of the spec's text: the span that changes. */
function replacement(text: string, finding: Finding) {
  let edited: string;
  try {
    edited = applySpecEdits(text, finding.edit ?? []);
  } catch {
    // An edit the text cannot take is left to the report's message.
    return undefined;
  }
  let start = 0;
  while (start < text.length && text[start] === edited[start]) start++;
  let end = 0;
  while (
    end < text.length - start &&
    end < edited.length - start &&
    text[text.length - 1 - end] === edited[edited.length - 1 - end]
  ) {
    end++;
  }
  return {
    deletedRegion: { charOffset: start, charLength: text.length - start - end },
    insertedContent: { text: edited.slice(start, edited.length - end) },
  };
}

function result(finding: Finding, file: SpecFile | undefined) {
  const uri = file?.uri ?? `specs/${finding.spec}/openapi.yaml`;
  const where = file === undefined ? undefined : locate(file.text, finding.pointer);
  const change =
    file === undefined || finding.edit === undefined ? undefined : replacement(file.text, finding);
  return {
    ruleId: RULE.id,
    level: 'error',
    message: {
      text: `${finding.pointer}: ${finding.evidence.replaceAll('\n', '; ')} (the spec's guess is confirmed by ${finding.expects.confirm}; contradicted by ${finding.expects.contradict})`,
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri },
          ...(where === undefined
            ? {}
            : { region: { startLine: where.line, startColumn: where.column } }),
        },
        logicalLocations: [
          { fullyQualifiedName: `${finding.spec}#${finding.pointer}`, kind: 'member' },
        ],
      },
    ],
    partialFingerprints: { specPointer: `${finding.spec}#${finding.pointer}` },
    ...(change === undefined
      ? {}
      : {
          fixes: [
            {
              description: { text: `Edit ${uri} as the answers show.` },
              artifactChanges: [{ artifactLocation: { uri }, replacements: [change] }],
            },
          ],
        }),
  };
}

/**
 * The contradicted findings as a SARIF 2.1.0 log, for a code scanning view: one result per
 * contradicted guess, located at the line of the spec where the guess is written (given the
 * text of `specs`), with the spec edit as its fix. Without a spec's text the result names the
 * file only.
 *
 * @example
 * const specs = { common: { uri: 'specs/common/openapi.yaml', text: await readFile('specs/common/openapi.yaml', 'utf8') } };
 * await writeFile('verify.sarif', formatSarif(findings, specs));
 */
export function formatSarif(
  findings: readonly Finding[],
  specs: Partial<Record<SpecName, SpecFile>> = {},
): string {
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'partner-apis verify',
            informationUri:
              'https://github.com/partner-apis/partner-apis/tree/main/packages/verify',
            rules: [RULE],
          },
        },
        results: findings
          .filter((finding) => finding.status === 'contradicted')
          .map((finding) => result(finding, specs[finding.spec])),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
