/** One TypeScript block of a README: where it starts, and its code with its context. */
export interface ReadmeBlock {
  /** The line of its opening fence, 1-based. */
  readonly line: number;
  readonly code: string;
}

const BLOCK = /^(?:<!-- context:\n?([\s\S]*?)-->\n\n?)?```(?:ts|typescript)\n([\s\S]*?)^```$/gm;

/**
 * Every `ts` block of a README, each as a module of its own. A block that continues an earlier
 * one (it uses its `client`) says what it assumes in an HTML comment right before it, invisible
 * when rendered: `<!-- context: declare const client: ExposureClient; -->`.
 *
 * @example
 * readmeBlocks(readme).map((block) => block.line); // [31, 112]
 */
export function readmeBlocks(readme: string): ReadmeBlock[] {
  return [...readme.matchAll(BLOCK)].map((match) => {
    const before = readme.slice(0, match.index + match[0].indexOf('```'));
    const context = match[1] ?? '';
    return {
      line: before.split('\n').length,
      code: `${context}\n${match[2]}\nexport {};\n`,
    };
  });
}
