/**
 * A mistake in the command line or the configuration that the CLI itself finds. It ends the
 * command with exit code 2 before anything is sent.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The data a command was given (e.g. a Statement of Values file) has problems the command already
 * printed. Ends the command with exit code 1 and no further message.
 */
export class ReportedFailure extends Error {
  override readonly name = 'ReportedFailure';
}

/**
 * Data that the CLI cannot use: a record from a service that is not an object, a file that is
 * not what its name says. Ends the command with exit code 1 and this message.
 */
export class DataError extends Error {
  override readonly name = 'DataError';
}
