import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  Document,
  LineCounter,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseDocument,
  visit,
  type Node,
  type Pair,
} from 'yaml';
import type { Finding, SpecEdit } from './types.js';

/** The width the specs are written to. */
const LINE_WIDTH = 100;

function tokensOf(path: string): string[] {
  if (!path.startsWith('/')) throw new Error(`"${path}" is not a JSON Pointer`);
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** The node at `tokens`, or undefined. */
function nodeAt(root: unknown, tokens: readonly string[]): Node | undefined {
  let current = root;
  for (const token of tokens) {
    if (isMap(current)) current = current.items.find((pair) => keyOf(pair) === token)?.value;
    else if (isSeq(current)) current = current.items[Number(token)];
    else return undefined;
  }
  return current as Node | undefined;
}

/**
 * Where the member at `path` is written in the text of a spec (its key, or the item), or its
 * nearest ancestor that is: a line and a column, both from 1.
 *
 * @example
 * locate(text, '/components/parameters/Offset/x-upstream-gap'); // { line: 140, column: 7 }
 */
export function locate(text: string, path: string): { line: number; column: number } {
  const lines = new LineCounter();
  let current: unknown = parseDocument(text, { lineCounter: lines }).contents;
  let offset = 0;
  for (const token of tokensOf(path)) {
    const pair = isMap(current) ? current.items.find((p) => keyOf(p) === token) : undefined;
    const item = isSeq(current) ? (current.items[Number(token)] as Node | undefined) : undefined;
    const at = pair === undefined ? item : (pair.key as Node | null);
    if (at?.range == null) break;
    offset = at.range[0];
    current = pair === undefined ? item : pair.value;
  }
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

function column(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The end of a node's own text: trailing blank and comment lines belong to what follows. */
function contentEnd(text: string, node: Node): number {
  const [start, end] = node.range ?? [0, 0];
  const lines = text.slice(start, end).split('\n');
  while (lines.length > 1 && /^\s*(#.*)?$/.test(lines[lines.length - 1]!)) lines.pop();
  return start + lines.join('\n').trimEnd().length;
}

/** `value` as YAML to stand after `key:` at `indent`: on the same line, or indented below it. */
function rendered(value: unknown, indent: number, keyLength: number): string {
  // YAML 1.1 quotes what older parsers would read as a date or a boolean ('2026-02-03', 'no').
  const document = new Document(value, { version: '1.1' });
  const width = Math.max(40, LINE_WIDTH - indent);
  visit(document, {
    Seq(_, node) {
      // Lists of scalars stay on one line, as the specs write them.
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
    Scalar(_, node) {
      // Prose longer than its line is folded, as the specs write it; below the top the key's
      // length is not known, so a typical one is assumed.
      const room = node === document.contents ? width - keyLength : width - 30;
      if (
        typeof node.value === 'string' &&
        node.value.length > room &&
        !node.value.includes('\n')
      ) {
        node.type = 'BLOCK_FOLDED';
      }
    },
  });
  const text = document
    .toString({ lineWidth: width, singleQuote: true, flowCollectionPadding: false })
    .replace(/^%YAML 1\.1\n---\n?/, '')
    .trimEnd();
  const lines = text
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : `${' '.repeat(indent)}${line}`));
  const block = isMap(document.contents) || (isSeq(document.contents) && !document.contents.flow);
  return block ? `\n${' '.repeat(indent)}${lines.join('\n')}` : ` ${lines.join('\n')}`;
}

function renderedKey(key: string): string {
  return new Document(key).toString({ singleQuote: true }).trimEnd();
}

/** Applies one edit to the YAML text, touching only the text of the node it changes. */
function applyOne(text: string, edit: SpecEdit): string {
  const tokens = tokensOf(edit.path);
  const key = tokens[tokens.length - 1]!;
  const document = parseDocument(text);
  const parent = nodeAt(document.contents, tokens.slice(0, -1));
  if (!isMap(parent)) throw new Error(`${edit.path}: its parent is not a mapping of the spec`);
  const pair = parent.items.find((p) => keyOf(p) === key);
  if (pair === undefined) {
    if (edit.op === 'replace') throw new Error(`${edit.path}: nothing to replace`);
    const last = parent.items[parent.items.length - 1];
    if (!isPair(last) || last.key === null || !isScalar(last.key))
      throw new Error(`${edit.path}: its parent mapping is empty`);
    const indent = column(text, last.key.range![0]);
    const at = last.value === null ? last.key.range![1] : contentEnd(text, last.value as Node);
    const inserted = `\n${' '.repeat(indent)}${renderedKey(key)}:${rendered(edit.value, indent + 2, renderedKey(key).length)}`;
    return text.slice(0, at) + inserted + text.slice(at);
  }
  if (!isScalar(pair.key) || pair.value === null)
    throw new Error(`${edit.path}: cannot be edited in place`);
  const colon = text.indexOf(':', pair.key.range![1]);
  const indent = column(text, pair.key.range![0]);
  const end = contentEnd(text, pair.value as Node);
  return (
    text.slice(0, colon + 1) +
    rendered(edit.value, indent + 2, colon - pair.key.range![0]) +
    text.slice(end)
  );
}

/**
 * Applies edits to the text of a spec, keeping its comments, order and formatting everywhere
 * else: each edit rewrites only the text of the value it changes (the `yaml` package's Document
 * API finds it). An edit whose result does not read back as its value is refused.
 *
 * @example
 * applySpecEdits(text, [{ op: 'replace', path: '/components/parameters/Offset/x-paging', value: 'page' }]);
 */
export function applySpecEdits(text: string, edits: readonly SpecEdit[]): string {
  let result = text;
  for (const edit of edits) {
    result = applyOne(result, edit);
    const check = parseDocument(result);
    if (check.errors.length > 0 || !isDeepStrictEqual(nodeValue(check, edit.path), edit.value)) {
      throw new Error(`${edit.path}: the edited spec does not read back as the edit's value`);
    }
  }
  return result;
}

function nodeValue(document: Document.Parsed, path: string): unknown {
  const node = nodeAt(document.contents, tokensOf(path));
  return node === undefined ? undefined : (node as { toJSON(): unknown }).toJSON();
}

/**
 * Writes the edits of contradicted findings into the specs under `specsDir`
 * (`<specsDir>/<spec>/openapi.yaml`), and returns the files changed. Edits of the same place
 * that disagree are refused before anything is written.
 *
 * @example
 * const { findings } = await verifyUpstream(options);
 * await writeSpecEdits('specs', findings); // ['specs/common/openapi.yaml', …]
 */
export async function writeSpecEdits(
  specsDir: string,
  findings: readonly Finding[],
): Promise<string[]> {
  const bySpec = new Map<string, Map<string, SpecEdit>>();
  for (const finding of findings) {
    if (finding.status !== 'contradicted') continue;
    for (const edit of finding.edit ?? []) {
      const edits = bySpec.get(finding.spec) ?? new Map<string, SpecEdit>();
      bySpec.set(finding.spec, edits);
      const earlier = edits.get(edit.path);
      if (earlier !== undefined && !isDeepStrictEqual(earlier, edit)) {
        throw new Error(
          `specs/${finding.spec}/openapi.yaml${edit.path}: the findings disagree on its edit`,
        );
      }
      edits.set(edit.path, edit);
    }
  }
  const changed: { file: string; text: string }[] = [];
  for (const [spec, edits] of bySpec) {
    const file = join(specsDir, spec, 'openapi.yaml');
    changed.push({ file, text: applySpecEdits(await readFile(file, 'utf8'), [...edits.values()]) });
  }
  for (const { file, text } of changed) await writeFile(file, text);
  return changed.map(({ file }) => file);
}
