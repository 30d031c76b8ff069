import type { Section } from './report.js';

/** How long and how often a scenario measures. */
export interface RunOptions {
  /** A short run for trying the bench out: fewer rounds, shorter windows, no result file. */
  quick: boolean;
}

/** One benchmark scenario: B1 … B4, S1. */
export interface Scenario {
  id: string;
  run(options: RunOptions): Promise<Section>;
}

/** Formats a ratio as `0.87×`. */
export function times(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '—';
}

/** Formats a number with a fixed count of decimals, `—` when it is not a number. */
export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}
