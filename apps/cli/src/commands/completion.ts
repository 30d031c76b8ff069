import { Argument, type Command, type Option } from 'commander';
import { type CommandContext } from '../command-context.js';
import { examples } from '../help-format.js';

/** The shells `partner-apis completion` writes a script for. */
const SHELLS = ['bash', 'zsh', 'fish'] as const;

export type Shell = (typeof SHELLS)[number];

/** The hidden command the scripts call with the words typed so far; prints one candidate a line. */
export const COMPLETE_COMMAND = '__complete';

// The scripts ask the CLI itself, so they never go stale as commands and options change.
const SCRIPTS: Readonly<Record<Shell, string>> = {
  bash: `# partner-apis completion for bash. Add to ~/.bashrc:
#   source <(partner-apis completion bash)
_partner_apis() {
  local IFS=$'\\n'
  COMPREPLY=($(partner-apis ${COMPLETE_COMMAND} "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _partner_apis partner-apis
`,
  zsh: `#compdef partner-apis
# partner-apis completion for zsh. Add to ~/.zshrc (after compinit):
#   source <(partner-apis completion zsh)
_partner_apis() {
  local -a candidates
  candidates=("\${(@f)$(partner-apis ${COMPLETE_COMMAND} "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ -n "\${candidates[1]}" ]]; then
    compadd -a candidates
  else
    _files
  fi
}
compdef _partner_apis partner-apis
`,
  fish: `# partner-apis completion for fish. Save as ~/.config/fish/completions/partner-apis.fish:
#   partner-apis completion fish > ~/.config/fish/completions/partner-apis.fish
function __partner_apis_complete
    partner-apis ${COMPLETE_COMMAND} (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null
end
complete -c partner-apis -f -n 'test -n "$(__partner_apis_complete)"' -a '(__partner_apis_complete)'
complete -c partner-apis -F -n 'test -z "$(__partner_apis_complete)"'
`,
};

function visibleCommands(command: Command): Command[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => sub.name() !== 'help');
}

/** The options valid at `command`: its own and those of every command above it. */
function optionsAt(command: Command): Option[] {
  const options: Option[] = [];
  for (let at: Command | null = command; at !== null; at = at.parent) {
    options.push(...at.options.filter((option) => !option.hidden));
  }
  return options;
}

/**
 * The command a group runs when named alone (`exposure locations` lists), if it has one.
 * Commander keeps its name in a field of its own, with no accessor.
 */
export function defaultSubcommand(command: Command): Command | undefined {
  const name = (command as unknown as { _defaultCommandName?: string | null })._defaultCommandName;
  return name ? command.commands.find((sub) => sub.name() === name) : undefined;
}

function findOption(command: Command, word: string): Option | undefined {
  const flag = word.split('=')[0];
  return optionsAt(command).find((option) => option.long === flag || option.short === flag);
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/**
 * What may come next on a `partner-apis` command line: `words` are the words after the program
 * name, the last one being the word under the cursor (possibly empty). Subcommands, options of
 * the command reached and its parents, or the values of an option: its choices, else what
 * `valuesOf` knows (the profiles of `--profile`); nothing where a free value or a file goes
 * (the shell then completes file names).
 */
export function completeWords(
  program: Command,
  words: readonly string[],
  valuesOf: (option: Option) => readonly string[] = () => [],
): string[] {
  let current = words.at(-1) ?? '';
  let command = program;
  let pendingValue: Option | undefined;
  for (const word of words.slice(0, -1)) {
    // bash splits `--output=` into `--output` and `=`: the value still comes.
    if (pendingValue !== undefined && word === '=') continue;
    if (pendingValue !== undefined) {
      pendingValue = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      command = defaultSubcommand(command) ?? command;
      const option = findOption(command, word);
      if (option !== undefined && takesValue(option) && !word.includes('=')) pendingValue = option;
      continue;
    }
    command = visibleCommands(command).find((sub) => sub.name() === word) ?? command;
  }
  let prefix = '';
  // zsh and fish give `--output=js` as one word: its value is completed after the `=`.
  const inline = /^(--[\w-]+=)(.*)$/.exec(current);
  if (inline !== null) {
    const option = findOption(defaultSubcommand(command) ?? command, inline[1]!.slice(0, -1));
    if (option !== undefined && takesValue(option)) {
      [prefix, current] = [inline[1]!, inline[2]!];
      pendingValue = option;
    }
  }
  const starting = (candidates: readonly string[]) =>
    candidates
      .filter((candidate) => candidate.startsWith(current))
      .map((candidate) => `${prefix}${candidate}`);
  if (pendingValue !== undefined) {
    return starting(pendingValue.argChoices ?? valuesOf(pendingValue));
  }
  if (current.startsWith('-')) {
    command = defaultSubcommand(command) ?? command;
    const flags = optionsAt(command).flatMap((option) => (option.long ? [option.long] : []));
    return starting([...flags, '--help']);
  }
  const subcommands = visibleCommands(command).map((sub) => sub.name());
  if (subcommands.length > 0) return starting(subcommands);
  const argument = (command.registeredArguments as readonly Argument[])[0];
  return starting(argument?.argChoices ?? []);
}

/**
 * `partner-apis completion bash|zsh|fish`: prints the shell's completion script.
 */
export function registerCompletionCommand(program: Command, context: CommandContext): void {
  program
    .command('completion')
    .description('print the tab-completion script of a shell')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      examples([
        'partner-apis completion bash',
        'source <(partner-apis completion zsh)',
        'partner-apis completion fish > ~/.config/fish/completions/partner-apis.fish',
      ]),
    )
    .action((shell: Shell) => {
      context.io.stdout.write(SCRIPTS[shell]);
    });
}
