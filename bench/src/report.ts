/** One goal of the benchmark issue, checked against this run's measurement. */
export interface Goal {
  /** What is measured, e.g. "B1 our client vs bare openapi-fetch (c=32)". */
  name: string;
  /** The target in words, e.g. "≥ 0.90×". */
  target: string;
  /** The measured value, formatted; "—" when the scenario could not run. */
  measured: string;
  /** `undefined` when it could not be measured in this run. */
  met: boolean | undefined;
}

/** A markdown table. */
export interface Table {
  columns: string[];
  rows: string[][];
}

/** What one scenario reports. */
export interface Section {
  id: string;
  title: string;
  /** One paragraph: what was measured and how. */
  method: string;
  tables: Table[];
  goals: Goal[];
  /** Lines shown below the tables: skipped rows, causes of misses, remarks. */
  notes: string[];
}

/** The machine and build a run was measured on. */
export interface Environment {
  date: string;
  commit: string;
  node: string;
  cpu: string;
  cores: number;
  durationSeconds: number;
  /** The one-minute load average when the run started and when it ended. */
  load: [number, number];
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** Renders a table as GitHub markdown. */
export function renderTable(table: Table): string {
  const lines = [
    `| ${table.columns.map(escapeCell).join(' | ')} |`,
    `| ${table.columns.map(() => '---').join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ];
  return lines.join('\n');
}

/** "PASS", "MISS" or "n/a" for a goal. */
export function goalStatus(goal: Goal): string {
  if (goal.met === undefined) return 'n/a';
  return goal.met ? 'PASS' : 'MISS';
}

/** Renders the whole report: environment, every goal at a glance, then each scenario. */
export function renderReport(environment: Environment, sections: readonly Section[]): string {
  const goals = sections.flatMap((section) => section.goals);
  const parts = [
    '# Benchmark results',
    [
      `Measured ${environment.date} at commit ${environment.commit}, Node ${environment.node}, `,
      `${environment.cores} × ${environment.cpu}; the run took ${environment.durationSeconds.toFixed(0)} s, `,
      `load average ${environment.load.map((l) => l.toFixed(1)).join(' at the start, ')} at the end. `,
      'Goals are ratios within this run, never absolute times.',
    ].join(''),
    '## Goals',
    renderTable({
      columns: ['goal', 'target', 'measured', 'result'],
      rows: goals.map((goal) => [goal.name, goal.target, goal.measured, goalStatus(goal)]),
    }),
  ];
  for (const section of sections) {
    parts.push(`## ${section.id} ${section.title}`, section.method);
    for (const table of section.tables) parts.push(renderTable(table));
    if (section.notes.length > 0) parts.push(section.notes.map((note) => `- ${note}`).join('\n'));
  }
  return `${parts.join('\n\n')}\n`;
}
