import type { Section } from './report.js';
import type { Scenario } from './scenario.js';

async function run(): Promise<Section> {
  return {
    id: 'B3',
    title: 'Token single flight',
    method:
      '1,000 concurrent calls on a cold exposure client; token requests counted by the sandbox.',
    tables: [],
    goals: [
      {
        name: 'B3 token requests for 1,000 cold calls',
        target: '= 1',
        measured: '—',
        met: undefined,
      },
    ],
    notes: ['not available — needs @partner-apis/sandbox and @partner-apis/exposure'],
  };
}

export const b3SingleFlight: Scenario = { id: 'B3', run };
