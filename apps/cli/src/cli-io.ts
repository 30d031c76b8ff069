/** The process around a command: its streams, environment and working directory. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & {
    readonly isTTY?: boolean | undefined;
    /** The terminal's width, when stdout is one. */
    readonly columns?: number | undefined;
  };
  readonly stderr: NodeJS.WritableStream & {
    readonly isTTY?: boolean | undefined;
    /** The terminal's width, when stderr is one. */
    readonly columns?: number | undefined;
  };
  /** Where `--data -` reads from; the process's stdin when left out. */
  readonly stdin?: NodeJS.ReadableStream | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}
