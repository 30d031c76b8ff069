import type { Section } from './report.js';
import type { Scenario } from './scenario.js';

async function run(): Promise<Section> {
  return {
    id: 'S1',
    title: 'Soak',
    method: '20,000 mixed requests through all four clients against the sandbox with faults on.',
    tables: [],
    goals: [],
    notes: ['not available — needs @partner-apis/sandbox and the four service clients'],
  };
}

export const s1Soak: Scenario = { id: 'S1', run };
