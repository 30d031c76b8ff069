import type * as liabilityPackage from '@partner-apis/liability';

/** What the CLI uses of a liability client package: its client and its `fromEnv`. */
export type LiabilityPackage = Pick<typeof liabilityPackage, 'createLiabilityClient' | 'fromEnv'>;

/** Major version of the liability API → loader of the client package that calls it. */
export type LiabilityMajors = Readonly<Record<number, () => Promise<LiabilityPackage>>>;

/**
 * The majors of the liability API the CLI can call (`--major`); the highest is the default.
 * While the upstream runs two majors in parallel, the old one's maintenance line is installed
 * under an npm alias (see CONTRIBUTING.md) and added here, and nothing else changes. (The
 * commands build requests with the newest major's types: should the old major's package not
 * fit them, this file does not compile, and the commands need to learn that major's shapes.)
 */
export const LIABILITY_MAJORS: LiabilityMajors = {
  1: () => import('@partner-apis/liability'),
};
