import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * The public surface of a workspace package, one line per exported name with its kind (a function's
 * line is its call signature, long types shortened with `...`), for every entry of its package.json `exports`. The entries are read
 * from the TypeScript sources (`./dist/x.d.ts` → `src/x.ts`), so the report needs no build.
 */
export function apiReport(root: string, packageDir: string): string {
  const manifest = JSON.parse(readFileSync(join(root, packageDir, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, { types: string }>;
  };
  const entries = Object.entries(manifest.exports).map(([subpath, target]) => ({
    specifier: manifest.name + subpath.slice(1),
    file: join(
      root,
      packageDir,
      target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'),
    ),
  }));
  const program = ts.createProgram(
    entries.map((e) => e.file),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
  );
  const checker = program.getTypeChecker();
  const sections = entries.map(({ specifier, file }) => {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file}: not a module`);
    const lines = checker
      .getExportsOfModule(module)
      .map((symbol) => describe(checker, symbol))
      .sort((a, b) => a.localeCompare(b, 'en'));
    return [`## ${specifier} (${lines.length} names)`, '', ...lines, ''].join('\n');
  });
  return sections.join('\n');
}

function describe(checker: ts.TypeChecker, exported: ts.Symbol): string {
  const symbol =
    exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const kinds = kindsOf(symbol.flags);
  const name = exported.getName();
  if (symbol.flags & ts.SymbolFlags.Function) {
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration!);
    const signatures = type
      .getCallSignatures()
      // The checker's own truncation keeps types inferred from zod schemas to one readable line.
      .map((s) => checker.signatureToString(s));
    return signatures.map((s) => `${kinds} ${name}${s}`).join('\n');
  }
  return `${kinds} ${name}`;
}

function kindsOf(flags: ts.SymbolFlags): string {
  const kinds: string[] = [];
  if (flags & ts.SymbolFlags.Class) kinds.push('class');
  else if (flags & ts.SymbolFlags.Function) kinds.push('function');
  else if (flags & ts.SymbolFlags.Enum) kinds.push('enum');
  else if (flags & ts.SymbolFlags.Variable) kinds.push('const');
  if (flags & ts.SymbolFlags.Interface) kinds.push('interface');
  if (flags & ts.SymbolFlags.TypeAlias) kinds.push('type');
  if (flags & ts.SymbolFlags.Namespace) kinds.push('namespace');
  return kinds.join(' ') || 'unknown';
}
