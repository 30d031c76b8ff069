import { Help, type Command, type Option } from 'commander';

/** The help's width when nothing says otherwise (a pipe, a file). */
export const DEFAULT_HELP_WIDTH = 80;

/** The width the help of `command` is laid out for, as its output is configured. */
function widthOf(command: Command): number {
  return command.configureOutput().getOutHelpWidth?.() ?? DEFAULT_HELP_WIDTH;
}

/**
 * `text` broken at spaces into lines of at most `width` characters, each starting with
 * `indent`; a word longer than the line stays whole.
 */
export function wrapWords(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    const next = current === '' ? `${indent}${word}` : `${current} ${word}`;
    if (current !== '' && next.length > width) {
      lines.push(current);
      current = `${indent}${word}`;
    } else {
      current = next;
    }
  }
  if (current !== '') lines.push(current);
  return lines;
}

/**
 * Lines of text fitted to `width` (none when it is undefined): a longer line is broken at
 * spaces, its continuation indented two more than the line; a word longer than the line
 * (a URL) stays whole.
 */
export function fitLines(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      const indent = /^ */.exec(line)![0];
      const lines = wrapWords(line, width, `${indent}  `);
      // The first line keeps its own indent.
      return [lines[0]!.slice(2), ...lines.slice(1)].join('\n');
    })
    .join('\n');
}

/** The words of a shell command, a quoted argument being one word, an option with its value. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const word of line.match(/(?:"[^"]*"|'[^']*'|\S)+/g) ?? []) {
    const last = words.at(-1);
    if (last !== undefined && /^--?[\w-]+$/.test(last) && !word.startsWith('-')) {
      words[words.length - 1] = `${last} ${word}`;
    } else {
      words.push(word);
    }
  }
  return words;
}

/**
 * One example as the terminal shows it: `  $ command`, continued with ` \` on the next lines
 * where it is wider than `width`, so that no word is broken by the terminal and the lines
 * still paste into a shell as one command.
 */
function example(line: string, width: number): string {
  const lines: string[] = [];
  let current = '  $';
  // An option and its value stay on one line, unless together they are wider than one.
  const words = shellWords(line).flatMap((word) =>
    `      ${word}`.length > width ? word.split(' ') : [word],
  );
  for (const word of words) {
    if (current.trim() !== '$' && `${current} ${word} \\`.length > width) {
      lines.push(`${current} \\`);
      current = `      ${word}`;
    } else {
      current += ` ${word}`;
    }
  }
  lines.push(current);
  return lines.join('\n');
}

/**
 * The help text of examples shown after a command's options, fitted to the help's width.
 */
export function examples(
  lines: readonly string[],
  notes: readonly string[] = [],
): (context: { command: Command }) => string {
  return ({ command }) => {
    const width = widthOf(command);
    const text = [`\nExamples:`, ...lines.map((line) => example(line, width))];
    for (const note of notes) text.push('', ...wrapWords(note, width));
    return text.join('\n');
  };
}

/**
 * Paragraphs of help under a heading, fitted to the help's width.
 */
export function helpSection(
  heading: string,
  paragraphs: readonly string[],
): (context: { command: Command }) => string {
  return ({ command }) => {
    const width = widthOf(command);
    const body = paragraphs.map((paragraph) => wrapWords(paragraph, width, '  ').join('\n'));
    return `\n${heading}\n${body.join('\n\n')}`;
  };
}

/**
 * How the help of every command reads: fitted to `width` (the terminal's, or `COLUMNS`), the
 * global options (`--env`, `--profile`, `--debug`, …) shown under each subcommand after its
 * own commands and options, and required options marked.
 */
export function configureHelp(program: Command, width: number): void {
  program.configureHelp({
    helpWidth: width,
    // Commander stops wrapping a column narrower than 40; a 60-column terminal needs it.
    minWidthToWrap: 10,
    showGlobalOptions: true,
    formatHelp(this: Help, command: Command, helper: Help) {
      // Sections are separated by a blank line; what a group offers comes before what all share.
      const sections = Help.prototype.formatHelp
        .call(this, command, helper)
        .split(/\n\n(?=\S)/)
        .map((section) => section.replace(/\n+$/, ''));
      const global = sections.findIndex((section) => section.startsWith('Global Options:'));
      if (global >= 0) sections.push(...sections.splice(global, 1));
      return `${sections.join('\n\n')}\n`;
    },
    optionDescription(this: Help, option: Option) {
      let description = Help.prototype.optionDescription.call(this, option);
      // A default that is not a value (`PARTNER_APIS_ENV, else …`) is shown from its description.
      if (option.defaultValue === undefined && option.defaultValueDescription !== undefined) {
        description += ` (default: ${option.defaultValueDescription})`;
      }
      return option.mandatory ? `${description} (required)` : description;
    },
  });
}

/**
 * `text` of an error report with its `error:` marks in red, for a terminal that shows colours:
 * not when `NO_COLOR` is set (no-color.org), nor for a pipe or a file.
 */
export function inColour(
  text: string,
  stream: { readonly isTTY?: boolean | undefined },
  env: NodeJS.ProcessEnv,
): string {
  if (stream.isTTY !== true || (env.NO_COLOR ?? '') !== '' || env.TERM === 'dumb') return text;
  return text.replace(/^((?:configuration |internal )?error:)/gm, '\x1b[31m$1\x1b[39m');
}
