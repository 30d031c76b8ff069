/** The exit codes of `partner-apis`; scripts may rely on them. */
export const ExitCode = {
  /** The command did what it was asked. */
  ok: 0,
  /** A service answered with an error, could not be reached, or the input data has problems. */
  failure: 1,
  /** The command line or the configuration is wrong; nothing was sent. */
  usage: 2,
  /**
   * `verify`: nothing was contradicted, but a check could not observe its guess (unreachable,
   * refused credentials, a proxy that does not answer, a service that answers alike).
   */
  unobserved: 3,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
