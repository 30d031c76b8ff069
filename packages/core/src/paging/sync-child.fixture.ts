/**
 * The syncing process of the proof (`runSyncRounds` of @partner-apis/testing starts it with
 * `<url> <state file> <mirror file> <now> <page size>`): a sync of the exposure locations that
 * appends each record to the mirror file and saves the checkpoint atomically after each page.
 */
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createOffsetCollection } from './offset-collection.js';
import type { OperationDescription } from '../operations/operation.js';
import { createServiceClient } from '../client/service-client.js';
import { createSyncRun } from './sync.js';

const [url, statePath, mirrorPath, now, pageSize] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];

/** The exposure locations read, as codegen describes it from the spec's x-sync and x-record-key. */
const listLocations = {
  operationId: 'listLocations',
  resource: 'locations',
  verb: 'list',
  method: 'GET',
  path: '/open/portal-api/exposure/locations',
  arguments: [{ in: 'params', required: false }],
  parameters: [
    {
      name: 'modifiedSince',
      in: 'query',
      required: false,
      type: 'string',
      format: 'date',
      sync: 'watermark',
    },
    {
      name: 'limit',
      in: 'query',
      required: false,
      type: 'integer',
      minimum: 1,
      maximum: 1024,
      paging: 'limit',
    },
    { name: 'offset', in: 'query', required: false, type: 'integer', minimum: 0, paging: 'offset' },
  ],
  response: { kind: 'json', type: 'array' },
  paging: {
    pageSize: 100,
    records: null,
    itemType: 'object',
    recordKey: 'locationId',
    syncable: true,
  },
  security: [],
} as const satisfies OperationDescription;

const client = createServiceClient<object>(
  { baseUrl: url, credentials: {} },
  { auth: () => ({ secretHeaderNames: [], authorize: () => undefined }) },
);
const locations = createOffsetCollection(client, listLocations);

let checkpoint: string | undefined;
try {
  checkpoint = readFileSync(statePath, 'utf8');
} catch {
  // No state file yet: the first run reads everything.
}
const run = createSyncRun(
  locations,
  listLocations,
  {
    checkpoint,
    pageSize: Number(pageSize),
    onCheckpoint: (saved) => {
      writeFileSync(`${statePath}.tmp`, JSON.stringify(saved));
      renameSync(`${statePath}.tmp`, statePath);
    },
  },
  { name: 'locations', now: () => new Date(now) },
);
for await (const location of run) appendFileSync(mirrorPath, `${JSON.stringify(location)}\n`);
