// @ts-check
import { describe, expect, it } from 'vitest';
import { describeSpec } from './index.js';

/**
 * The client members of the operations of a document built from `operations`, in order.
 * @param {readonly (readonly [string, string, Record<string, unknown>?])[]} operations path, method and
 *   the operation's fields (its operationId among them)
 */
function membersOf(operations) {
  /** @type {Record<string, Record<string, unknown>>} */
  const paths = {};
  for (const [path, method, fields] of operations) {
    paths[path] = { ...paths[path], [method]: { responses: {}, ...fields } };
  }
  return describeSpec({
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths,
  }).operations.map((op) => `${op.clientMethod.resource}.${op.clientMethod.verb}`);
}

describe('client method names', () => {
  it.each([
    ['getMuseumHours', 'museumHours.get'],
    ['listSpecialEvents', 'specialEvents.list'],
    ['get-stations', 'stations.get'],
    ['list_users', 'users.list'],
    ['create_user_account', 'userAccounts.create'],
    ['Stations_List', 'stations.list'],
    ['getHTTPSProxy', 'httpsProxies.get'],
    ['searchQuotes', 'quotes.search'],
    ['submitStatementOfValues', 'statementOfValues.submit'],
  ])('%s gives %s', (operationId, member) => {
    expect(membersOf([['/a', 'get', { operationId }]])).toEqual([member]);
  });

  it('takes the resource of a bare verb from its tag, else its path', () => {
    expect(
      membersOf([
        ['/trains', 'get', { operationId: 'list', tags: ['Train Stations'] }],
        ['/v1/trips/{tripId}', 'get', { operationId: 'get' }],
      ]),
    ).toEqual(['trainStations.list', 'trips.get']);
  });

  it('lets x-client-method name any operation', () => {
    const named = { operationId: 'a-b-c', 'x-client-method': 'bookings.cancel' };
    expect(membersOf([['/a', 'post', named]])).toEqual(['bookings.cancel']);
  });

  it('parts names that meet the same way on every run: the first keeps it', () => {
    const operations = /** @type {const} */ ([
      ['/stations', 'get', { operationId: 'getStations' }],
      ['/stations/{id}', 'get', { operationId: 'get-stations' }],
      ['/stations/{id}/x', 'get', { operationId: 'get_stations' }],
    ]);
    const first = membersOf(operations);
    expect(first).toEqual(['stations.get', 'stations.getStations', 'stations.getStations2']);
    expect(membersOf(operations)).toEqual(first);
  });

  it('gives a paged read that meets another a resource of its own, with list, page and sync', () => {
    const paging = [
      { name: 'limit', in: 'query', 'x-paging': 'limit', schema: { type: 'integer' } },
      { name: 'offset', in: 'query', 'x-paging': 'offset', schema: { type: 'integer' } },
    ];
    const ok = {
      200: { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } },
    };
    const paged = (/** @type {string} */ operationId) => ({
      operationId,
      parameters: paging,
      responses: ok,
    });
    expect(
      membersOf([
        ['/things', 'get', { operationId: 'listThings' }],
        ['/things/all', 'get', paged('listAllThings')],
        ['/things/more', 'get', paged('listMoreThings')],
      ]),
    ).toEqual(['things.list', 'allThings.list', 'moreThings.list']);
    expect(
      membersOf([
        ['/a', 'get', paged('listThings')],
        ['/b', 'get', paged('pageThings')],
      ]),
    ).toEqual(['things.list', 'pageThings.page']);
  });
});
