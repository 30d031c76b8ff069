// @ts-check
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What an editor shows a user of the service packages: the TypeScript language service's
 * hovers over the calls of the READMEs and the fields read off their answers and bodies, read
 * from the built declarations as a user gets them.
 */
const CONSUMER = `
import { createExposureClient, type Location, type StatementOfValues } from '@partner-apis/exposure';
import { createRiskEngineeringClient, type ErrorBody, type Grading } from '@partner-apis/riskengineering';
import { createLiabilityClient, type Quote } from '@partner-apis/liability';
import { createApprovalsClient, type ApprovalsResult } from '@partner-apis/approvals';

const keys = { clientId: 'c', clientSecret: 's', subscriptionKeys: { primary: 'k' } };
const exposure = createExposureClient({ baseUrl: 'https://e.test', tokenUrl: 'https://t.test', credentials: keys });
const risk = createRiskEngineeringClient({ baseUrl: 'https://r.test', tokenUrl: 'https://t.test', credentials: keys });
const liability = createLiabilityClient({ baseUrl: 'https://l.test', credentials: { clientId: 'c', clientSecret: 's' } });
const approvals = createApprovalsClient({ baseUrl: 'https://a.test', credentials: { clientId: 'c', clientSecret: 's' } });

export async function readme() {
  for await (const location of exposure.locations.list()) console.log(location);
  const firstPage = await exposure.locations.page({ limit: 10 });
  const run = exposure.locations.sync();
  const receipt = await exposure.statementOfValues.submit({ currency: 'EUR', locations: [] });
  for await (const grading of risk.gradings.list()) console.log(grading);
  const quote = await liability.quotes.get('QTE-2026-0004417');
  const found = await liability.quotes.search({ sellerId: 'SEL-1' });
  const outstanding = await approvals.approvals.list('100234');
  return { firstPage, run, receipt, quote, found, outstanding };
}

export function nested(
  approvalsResult: ApprovalsResult,
  created: Quote,
  portfolio: StatementOfValues,
  site: Location,
  survey: Grading,
  failure: ErrorBody,
) {
  const invoiceDetails = approvalsResult.invoiceApprovals?.[0]?.invoiceDetails;
  const answers = created.policyLines?.[0]?.declarativeQuestionAnswers;
  const country = answers?.countryOfSales;
  const address = portfolio.locations[0]?.address;
  const siteField = site['locationId'];
  const surveyField = survey['gradingId'];
  const source = failure.causes?.[0]?.source;
  return { invoiceDetails, country, address, siteField, surveyField, source };
}
`;

/** The hover of each expression, where `at` names the text just before it ends. */
const HOVERS = {
  'location)': 'const location: Location',
  'firstPage =': 'const firstPage: RecordsPage<Location>',
  'run =': 'const run: SyncRun<Location>',
  'receipt =': 'const receipt: StatementOfValuesReceipt',
  'grading)': 'const grading: Grading',
  'quote =': 'const quote: Quote',
  'found =': 'const found: QuoteSearchResult',
  'outstanding =': 'const outstanding: ApprovalsResult',
  'invoiceDetails =': 'const invoiceDetails: InvoiceDetails | undefined',
  'answers =': 'const answers: DeclarativeQuestionAnswers | undefined',
  'country =': 'const country: CountryOfSales | undefined',
  'address =': 'const address: Address',
  'source =': 'const source: ErrorSource | undefined',
  // A location and a grading are open records: the specs name none of their fields yet.
  'siteField =': 'const siteField: unknown',
  'surveyField =': 'const surveyField: unknown',
};
/** The hover of a field read at depth: its type by name. */
const FIELDS = {
  '?.invoiceDetails;': '(property) invoiceDetails?: InvoiceDetails | undefined',
  '?.declarativeQuestionAnswers;':
    '(property) declarativeQuestionAnswers: DeclarativeQuestionAnswers | undefined',
  '?.countryOfSales;': '(property) countryOfSales?: CountryOfSales | undefined',
  '?.address;': '(property) address: Address',
  '?.source;': '(property) source?: ErrorSource | undefined',
};
const METHODS = [
  'exposure.locations.list',
  'exposure.locations.page',
  'exposure.locations.sync',
  'exposure.statementOfValues.submit',
  'risk.gradings.list',
  'liability.quotes.get',
  'liability.quotes.search',
  'approvals.approvals.list',
];

let dir = '';
/** @type {ts.LanguageService} */
let service;
let file = '';

/** What the editor shows over the last word of `text`'s first occurrence in the consumer. */
function hover(/** @type {string} */ text) {
  const at = CONSUMER.indexOf(text);
  const word = text.replace(/[^\w.]+$/, '');
  const position = at + word.lastIndexOf('.') + 1;
  const info = service.getQuickInfoAtPosition(file, position);
  return ts.displayPartsToString(info?.displayParts ?? []);
}

beforeAll(async () => {
  // Inside this package, so the workspace packages resolve as a user's installed ones do.
  dir = await mkdtemp(join(fileURLToPath(new URL('..', import.meta.url)), '.hovers-'));
  file = join(dir, 'consumer.ts');
  await writeFile(file, CONSUMER);
  /** @type {ts.CompilerOptions} */
  const options = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
  };
  service = ts.createLanguageService({
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) =>
      ts.sys.fileExists(name)
        ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name) ?? '')
        : undefined,
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
});

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('hovers read like hand-written types', () => {
  it('the example compiles', () => {
    const errors = service
      .getSemanticDiagnostics(file)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  });

  it.each(Object.entries(HOVERS))('%s shows a named type', (text, shown) => {
    expect(hover(text)).toBe(shown);
  });

  it.each(Object.entries(FIELDS))('%s names its type at any depth', (text, shown) => {
    expect(hover(text)).toBe(shown);
    expect(shown).not.toMatch(/components\[|operations\[|\| undefined \| undefined/);
  });

  it.each(METHODS)('%s names its types, without the generated machinery', (method) => {
    const shown = hover(`${method}(`);
    expect(shown).toMatch(/^\(method\) /);
    expect(shown).not.toMatch(/components\[|operations\[|\| undefined \| undefined|typeof /);
    expect(shown.length).toBeLessThan(300);
  });
});
