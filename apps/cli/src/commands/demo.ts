import { flattenApprovals } from '@partner-apis/approvals';
import type { StatementOfValues } from '@partner-apis/exposure';
import { validateStatementOfValues } from '@partner-apis/exposure/statement-of-values';
import {
  THIRD_PARTY_LIABILITY_PRODUCT,
  thirdPartyLiabilityPolicyLine,
  type CountryOfSales,
  type Quote,
  type TerritoryOfSales,
} from '@partner-apis/liability';
import type { Command } from 'commander';
import {
  approvalsClient,
  exposureClient,
  liabilityClient,
  riskEngineeringClient,
} from '../clients.js';
import { terminalWidth, type CommandContext } from '../command-context.js';
import { examples, wrapWords } from '../help-format.js';
import { openSession } from '../service-session.js';
import { flatten } from '../output/flatten.js';
import { visibleText } from '../output/safe-text.js';
import { renderTable } from '../output/table.js';
import { SUMMARY_COLUMNS, approvalSummary } from './approvals.js';
import type { PagedRecords } from './paged-output.js';

type DataRecord = Record<string, unknown>;

/** Records shown of each collection. */
const SHOWN = 3;

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

/** Before every line under a heading. */
const INDENT = '   ';

/** A few records as an aligned table, indented under its heading, within `width` when given. */
function table(
  records: readonly DataRecord[],
  columns: readonly string[],
  width: number | undefined,
): string {
  return renderTable(
    columns,
    records.map((record) => flatten(record)),
    width === undefined ? undefined : width - INDENT.length,
  )
    .trimEnd()
    .split('\n')
    .map((line) => `${INDENT}${line}`)
    .join('\n');
}

async function survey<T extends DataRecord>(collection: PagedRecords<T>) {
  let records = 0;
  let pages = 0;
  const first: T[] = [];
  for await (const page of collection.pages()) {
    pages += 1;
    records += page.records.length;
    for (const record of page.records) if (first.length < SHOWN) first.push(record);
  }
  return { records, pages, first };
}

function count(value: number, noun: string): string {
  return `${value.toLocaleString('en-US')} ${noun}${value === 1 ? '' : 's'}`;
}

function describeQuote(quote: Quote): string {
  const price =
    quote.price === undefined ? 'no price' : `${quote.price.amount} ${quote.price.currency}`;
  const referrals =
    quote.referrals === undefined || quote.referrals.length === 0
      ? 'no referrals'
      : `referrals: ${quote.referrals.map((r) => [r.code, r.reason].filter(Boolean).join(' — ')).join('; ')}`;
  return `${quote.quoteId}: ${quote.status ?? 'no status'}, ${price}, ${referrals}`;
}

/** The Statement of Values fields of an exposure location, so the demo can send real records. */
function sovLocation(location: DataRecord): DataRecord {
  const fields = [
    'locationId',
    'name',
    'address',
    'coordinates',
    'occupancy',
    'construction',
    'yearBuilt',
    'numberOfStoreys',
    'floorArea',
    'sprinklered',
    'values',
  ];
  return Object.fromEntries(
    fields.filter((field) => field in location).map((field) => [field, location[field]]),
  );
}

/**
 * `partner-apis demo`: one guided pass through the four services against the embedded sandbox,
 * showing what each call returned.
 */
export function registerDemoCommand(program: Command, context: CommandContext): void {
  program
    .command('demo')
    .description(
      'a guided run through all four services against the embedded sandbox (always the sandbox: nothing is sent to a configured environment)',
    )
    .addHelpText(
      'after',
      examples(['partner-apis demo', 'PARTNER_APIS_SANDBOX_SIZE=200 partner-apis demo']),
    )
    .action(async (_options: unknown, command: Command) => {
      await context.run(command, async (configured) => {
        const session = openSession(
          { ...configured.settings, embeddedSandbox: true, variables: {} },
          context.io,
          { backgroundSandbox: false, note: context.note },
        );
        try {
          await runDemo(context, session);
        } finally {
          await session.close();
        }
      });
    });
}

async function runDemo(context: CommandContext, session: ReturnType<typeof openSession>) {
  const width = terminalWidth(context.io);
  // Plain text like any other output: what a service sent is shown, never obeyed by a terminal.
  // A line wider than the terminal continues on the next, indented, rather than being wrapped
  // by the terminal in the middle of a word.
  const out = (line = '') => {
    const text = visibleText(line, '\n');
    const fitted = text
      .split('\n')
      .flatMap((part) => {
        if (width === undefined || part.length <= width) return [part];
        const indent = /^ */.exec(part)![0];
        const [first = '', ...rest] = wrapWords(part, width - INDENT.length, indent);
        return [first, ...rest.map((next) => `${INDENT}${next}`)];
      })
      .join('\n');
    context.io.stdout.write(`${fitted}\n`);
  };
  const tableOf = (records: readonly DataRecord[], columns: readonly string[]) =>
    table(records, columns, width);
  const exposure = await exposureClient(session);
  const sandbox = session.sandbox!;
  out('partner-apis demo: each service once, against the embedded sandbox on 127.0.0.1');

  out();
  out('1. Exposure: locations and a Statement of Values');
  const locations = await survey(exposure.locations.list({ pageSize: 1024, prefetch: 4 }));
  out(
    `   ${count(locations.records, 'location')} in ${count(locations.pages, 'page')} of up to 1,024`,
  );
  const since = '2025-06-01';
  const recent = await survey(exposure.locations.list({ pageSize: 1024, modifiedSince: since }));
  out(`   ${count(recent.records, 'location')} modified since ${since}`);
  out(
    tableOf(locations.first, [
      'locationId',
      'name',
      'address.city',
      'address.country',
      'occupancy',
      'values.buildings',
      'currency',
    ]),
  );
  // A Statement of Values has one currency: the shown locations that share the first one's.
  const currency = text(locations.first[0]?.currency, 'EUR');
  const portfolio = {
    portfolioName: 'Demo portfolio',
    currency,
    locations: locations.first
      .filter((location) => location.currency === currency)
      .map(sovLocation),
  } as StatementOfValues;
  const { problems } = validateStatementOfValues(portfolio);
  const receipt = await exposure.statementOfValues.submit(portfolio);
  out(
    `   Statement of Values of the ${count(portfolio.locations.length, `${currency} location`)}: ${count(problems.length, 'problem')} locally; submitted, receipt ${text(receipt.submissionId, 'without an id')} (${text(receipt.status, 'no status')})`,
  );

  out();
  out('2. Risk engineering: gradings and locations');
  const riskEngineering = await riskEngineeringClient(session);
  const gradings = await survey(riskEngineering.gradings.list({ pageSize: 1024, prefetch: 4 }));
  out(`   ${count(gradings.records, 'grading')} in ${count(gradings.pages, 'page')}`);
  out(
    tableOf(gradings.first, [
      'gradingId',
      'locationId',
      'grade',
      'category',
      'openRecommendations',
    ]),
  );
  const riskLocations = await survey(
    riskEngineering.locations.list({ pageSize: 1024, prefetch: 4 }),
  );
  out(
    `   ${count(riskLocations.records, 'risk location')} in ${count(riskLocations.pages, 'page')}`,
  );
  out(tableOf(riskLocations.first, ['locationId', 'name', 'riskScore', 'lastSurveyDate']));

  out();
  out('3. Liability: a seller and its quotes, in one conversation');
  const liability = (await liabilityClient(session, context.liabilityMajors)).conversation();
  const seller = await liability.sellers.create({
    name: 'Nordlicht Home GmbH',
    address: { street: 'Lindenstraße 12', city: 'Hamburg', postalCode: '20095', country: 'DE' },
    marketplaces: [{ name: 'Amazon' }],
  });
  out(`   seller ${seller.sellerId}: ${seller.name} (${seller.address.country})`);
  const quoteFor = (countryOfSales: CountryOfSales, territoryOfSales: TerritoryOfSales) => ({
    productId: THIRD_PARTY_LIABILITY_PRODUCT.productId,
    policyLines: [thirdPartyLiabilityPolicyLine({ countryOfSales, territoryOfSales })],
    insureds: [{ sellerId: seller.sellerId }],
  });
  const priced = await liability.quotes.create(quoteFor('EU-ASIA', 'NON-US'));
  out(`   quote (EU-ASIA, NON-US) ${describeQuote(priced)}`);
  const referred = await liability.quotes.create(quoteFor('US-CA-UK-IL-CL-AU', 'US'));
  out(`   quote (US-CA-UK-IL-CL-AU, US) ${describeQuote(referred)}`);
  const read = await liability.quotes.get(priced.quoteId);
  out(`   quotes get ${read.quoteId}: ${read.status ?? 'no status'}`);
  const found = await liability.quotes.search({ sellerId: seller.sellerId });
  out(`   quotes search --seller-id ${seller.sellerId}: ${count(found.length, 'quote')}`);
  out(`   X-Z-Conversation-Id of these calls: ${liability.conversationId}`);

  out();
  const employee = sandbox.fixtures.employeeWithApprovals;
  out(`4. Approvals: employee ${employee}`);
  const approvals = await approvalsClient(session);
  const result = await approvals.approvals.list(employee);
  const entries = flattenApprovals(result);
  out(
    `   ${result.userFullname ?? 'the employee'}: ${count(entries.length, 'outstanding approval')}, oldest first`,
  );
  out(tableOf(entries.map(approvalSummary), SUMMARY_COLUMNS));

  out();
  out(
    `Done: ${count(sandbox.stats().totals.requests, 'request')}, all answered by the sandbox on 127.0.0.1.`,
  );
  out('Next: partner-apis --help, or partner-apis exposure locations -o ndjson | wc -l');
}
