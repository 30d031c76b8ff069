import { join } from 'node:path';
import ts from 'typescript';

/**
 * Where a README holds a generated table: `<!-- options: ExposureClientOptions -->`, the
 * table, then `<!-- /options -->`. The name is an export of the package's built declarations.
 */
const TABLE = /(<!-- options: (\w+) -->\n)[\s\S]*?(<!-- \/options -->)/g;

/** Nested option objects are listed member by member down to this depth (`a.b.c`). */
const MAX_DEPTH = 3;

/** One row of a table: the option's path and what its TSDoc says. */
export interface OptionRow {
  option: string;
  required: boolean;
  meaning: string;
}

/**
 * The built declarations of packages (`dist/index.d.ts`), read in one program: what each
 * exports, by package folder, and the type checker.
 */
export interface Declarations {
  checker: ts.TypeChecker;
  exports: ReadonlyMap<string, readonly ts.Symbol[]>;
}

/**
 * Reads the built declarations of the packages in `packageDirs` (build them first).
 */
export function loadDeclarations(packageDirs: readonly string[]): Declarations {
  const entries = packageDirs.map((dir) => join(dir, 'dist', 'index.d.ts'));
  const program = ts.createProgram(entries, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const exports = new Map<string, readonly ts.Symbol[]>();
  for (const [index, dir] of packageDirs.entries()) {
    const source = program.getSourceFile(entries[index] ?? '');
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${entries[index]} is missing: build ${dir} first`);
    exports.set(dir, checker.getExportsOfModule(module));
  }
  return { checker, exports };
}

/** TSDoc text as one table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replaceAll('|', '\\|');
}

/** True for an object of plain settings (no member is a function): listed member by member. */
function isSettingsObject(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (type.isUnion() || !(type.flags & ts.TypeFlags.Object) || checker.isArrayType(type)) {
    return false;
  }
  if (type.getCallSignatures().length > 0) return false;
  const members = checker.getPropertiesOfType(type);
  return (
    members.length > 0 &&
    members.every((member) => {
      const memberType = checker.getNonNullableType(checker.getTypeOfSymbol(member));
      return !(memberType.getCallSignatures().length > 0 || member.flags & ts.SymbolFlags.Method);
    })
  );
}

/** The TSDoc of an option, else of its type's declaration (`retry?: RetryOptions`). */
function documentation(checker: ts.TypeChecker, member: ts.Symbol, type: ts.Type): string {
  const own = ts.displayPartsToString(member.getDocumentationComment(checker));
  if (own.trim() !== '') return own;
  const declared = type.aliasSymbol ?? type.getSymbol();
  return declared === undefined
    ? ''
    : ts.displayPartsToString(declared.getDocumentationComment(checker));
}

function rowsOf(checker: ts.TypeChecker, type: ts.Type, prefix: string, depth: number) {
  const rows: OptionRow[] = [];
  for (const member of checker.getPropertiesOfType(type)) {
    const option = `${prefix}${member.name}`;
    const memberType = checker.getNonNullableType(checker.getTypeOfSymbol(member));
    const required = !(member.flags & ts.SymbolFlags.Optional);
    // A settings object is listed member by member when each member is documented.
    const members =
      depth < MAX_DEPTH && isSettingsObject(checker, memberType)
        ? rowsOf(checker, memberType, `${option}.`, depth + 1)
        : [];
    if (members.length > 0 && members.every((row) => row.meaning !== '')) {
      rows.push(...members.map((row) => ({ ...row, required: required && row.required })));
      continue;
    }
    rows.push({ option, required, meaning: cell(documentation(checker, member, memberType)) });
  }
  return rows;
}

/**
 * The options of the type `typeName` exported by the package in `packageDir`, with the TSDoc of
 * each: a nested object of plain settings (`retry`) member by member, in declaration order.
 * Throws when an option has no TSDoc, on itself or on its type.
 */
export function optionRows(
  { checker, exports }: Declarations,
  packageDir: string,
  typeName: string,
): OptionRow[] {
  const exported = exports.get(packageDir)?.find((symbol) => symbol.name === typeName);
  if (exported === undefined) throw new Error(`${packageDir} exports no type ${typeName}`);
  const symbol =
    exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const rows = rowsOf(checker, checker.getDeclaredTypeOfSymbol(symbol), '', 1);
  const undocumented = rows.filter((row) => row.meaning === '').map((row) => row.option);
  if (undocumented.length > 0) {
    throw new Error(`${typeName} has options without TSDoc: ${undocumented.join(', ')}`);
  }
  return rows;
}

/** The Markdown table of `rows`, unaligned (prettier aligns it). */
export function optionTable(rows: readonly OptionRow[]): string {
  const lines = rows.map(
    ({ option, required, meaning }) =>
      `| \`${option}\`${required ? ' (required)' : ''} | ${meaning} |`,
  );
  return ['| option | meaning |', '| --- | --- |', ...lines, ''].join('\n');
}

/**
 * `readme` with each generated table rewritten from `declarations` of the package in
 * `packageDir`. Tables are marked `<!-- options: TypeName -->` … `<!-- /options -->`; text
 * without one is returned as it is.
 */
export function withOptionTables(
  readme: string,
  declarations: Declarations,
  packageDir: string,
): string {
  return readme.replace(
    TABLE,
    (_, start: string, typeName: string, end: string) =>
      `${start}\n${optionTable(optionRows(declarations, packageDir, typeName))}\n${end}`,
  );
}

/** The type names of the generated tables of a README. */
export function optionTablesOf(readme: string): string[] {
  return [...readme.matchAll(TABLE)].map((match) => match[2] ?? '');
}
