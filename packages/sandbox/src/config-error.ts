/**
 * Bad sandbox configuration: an option, a fault plan or an admin request that cannot be used.
 * The message names the option; `option` and `problem` hold the two apart when the error is
 * about one option.
 */
export class SandboxConfigError extends Error {
  override readonly name = 'SandboxConfigError';
  /** The option it is about, as a path into the options (`liabilityMajors[1]`), when one. */
  readonly option: string | undefined;
  /** What is wrong with `option`, without its name. */
  readonly problem: string | undefined;

  constructor(message: string, about?: { option: string; problem: string }) {
    super(message);
    this.option = about?.option;
    this.problem = about?.problem;
  }
}
