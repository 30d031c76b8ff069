import { describe, expect, it } from 'vitest';
import { goalStatus, renderReport, renderTable, type Section } from './report.js';

describe('renderTable', () => {
  it('renders a header, a rule and one line per row, escaping pipes', () => {
    expect(renderTable({ columns: ['a', 'b'], rows: [['1', 'x|y']] })).toBe(
      '| a | b |\n| --- | --- |\n| 1 | x\\|y |',
    );
  });
});

describe('goalStatus', () => {
  it('says PASS, MISS or n/a', () => {
    const goal = { name: 'g', target: '≥ 1', measured: '1' };
    expect(goalStatus({ ...goal, met: true })).toBe('PASS');
    expect(goalStatus({ ...goal, met: false })).toBe('MISS');
    expect(goalStatus({ ...goal, met: undefined })).toBe('n/a');
  });
});

describe('renderReport', () => {
  it('lists every goal of every section first, then each section with its notes', () => {
    const sections: Section[] = [
      {
        id: 'B9',
        title: 'example',
        method: 'How it was measured.',
        tables: [{ columns: ['row'], rows: [['value']] }],
        goals: [{ name: 'speed', target: '≥ 2×', measured: '1.5×', met: false }],
        notes: ['client X: not available'],
      },
    ];
    const report = renderReport(
      {
        date: '2026-01-01',
        commit: 'abc1234',
        node: '20.19.0',
        cpu: 'cpu',
        cores: 2,
        durationSeconds: 12,
        load: [1.25, 3.5],
      },
      sections,
    );
    expect(report).toContain('| speed | ≥ 2× | 1.5× | MISS |');
    expect(report.indexOf('## Goals')).toBeLessThan(report.indexOf('## B9 example'));
    expect(report).toContain('- client X: not available');
    expect(report).toContain('| value |');
    expect(report).toContain('at commit abc1234');
    expect(report).toContain('load average 1.3 at the start, 3.5 at the end');
  });
});
