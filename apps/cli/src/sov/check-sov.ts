import type { StatementOfValues } from '@partner-apis/exposure';
import { validateStatementOfValues } from '@partner-apis/exposure/statement-of-values';
import type { CommandContext } from '../command-context.js';
import { visibleText } from '../output/safe-text.js';
import { ReportedFailure } from '../usage-error.js';
import { readStatementOfValues, type SovProblem } from './read-sov.js';

/** The portfolio options of `exposure sov validate` and `submit`. */
export interface SovOptions {
  currency?: string;
  portfolioName?: string;
  policyReference?: string;
  valuationDate?: string;
}

/** A Statement of Values that passed every check. */
export interface CheckedStatementOfValues {
  readonly portfolio: StatementOfValues;
  readonly locationCount: number;
}

/**
 * Reads a Statement of Values file and checks it against the exposure spec's schema, locally.
 * Every problem is printed as `file: row 4, column D (city): is required` (to stdout for
 * `validate`, whose result they are; to stderr for `submit`), then the command fails with exit
 * code 1 and nothing is sent.
 */
export async function checkStatementOfValues(
  file: string,
  options: SovOptions,
  context: CommandContext,
  problemsTo: 'stdout' | 'stderr',
): Promise<CheckedStatementOfValues> {
  const document = await readStatementOfValues(file, {
    currency: options.currency,
    portfolioName: options.portfolioName,
    policyReference: options.policyReference,
    valuationDate: options.valuationDate,
  });
  const schemaProblems: SovProblem[] = validateStatementOfValues(document.portfolio).problems.map(
    ({ pointer, message }) => ({ where: document.locate(pointer), message }),
  );
  const problems = [...document.problems, ...schemaProblems];
  if (problems.length === 0) {
    return {
      portfolio: document.portfolio as StatementOfValues,
      locationCount: document.locationCount,
    };
  }
  const lines = problems.map(({ where, message }) => `${file}: ${where}: ${message}`);
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  lines.push(`${count} in ${file}; nothing was sent`);
  // Headers and cells of the file are quoted in the problems: shown, never obeyed by a terminal.
  context.io[problemsTo].write(`${visibleText(lines.join('\n'), '\n')}\n`);
  throw new ReportedFailure(count);
}
