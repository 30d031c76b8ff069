// The generator is JavaScript with JSDoc types and ships no declarations; the tests use one function.
declare module '@partner-apis/codegen' {
  /** Deletes `src/generated/` of the package and writes it anew from the specs its `codegen.json` names. */
  export function generate(packageDir: string): Promise<string[]>;
}
