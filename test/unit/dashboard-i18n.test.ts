// The dashboard's message catalogues and the files that use them. Every language in
// dashboard/src/i18n/locales has exactly English's keys, each message a function where English
// has one (taking as many parameters); TypeScript checks the same when the dashboard is built,
// this says which key differs. And the converted files show no English of their own: no JSX
// text with letters, no literal words in user-facing attributes or in JSX expressions.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { catalogueTags, languageNamesModule } from '../../dashboard/build/language-names.ts';
import en from '../../dashboard/src/i18n/locales/en.ts';

const SRC = join(import.meta.dirname, '../../dashboard/src');
const LOCALES = join(SRC, 'i18n/locales');

/** Each message's path with what it is: "string" or "function/<arity>". */
function shape(messages: object, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(messages).flatMap(([key, value]): [string, string][] => {
      const path = prefix + key;
      if (typeof value === 'function') return [[path, `function/${value.length}`]];
      if (typeof value === 'object' && value !== null) return Object.entries(shape(value, `${path}.`));
      return [[path, typeof value]];
    }),
  );
}

/** Attributes a person reads or hears. */
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'alt',
  'title',
  'placeholder',
  'label',
  'hint',
  'what',
  'confirmLabel',
  'error',
]);
/** Letters make words; a host name or URL shown as an example ("go.example.com") is none. */
const isWords = (text: string) => /\p{L}{2,}/u.test(text) && !/^[\w-]+(\.[\w-]+)+[\w./:-]*$|^https?:/.test(text.trim());

/** String literals a JSX expression shows as they are (not those handed to a call such as t.x()). */
function shownLiterals(node: ts.Node): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.flatMap((span) => [span.literal.text])];
  if (ts.isConditionalExpression(node)) return [...shownLiterals(node.whenTrue), ...shownLiterals(node.whenFalse)];
  // a || 'b', a ?? 'b' show either side, a && 'b' the right one; a comparison shows neither.
  if (ts.isBinaryExpression(node)) {
    const operator = node.operatorToken.kind;
    if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return shownLiterals(node.right);
    if (operator === ts.SyntaxKind.BarBarToken || operator === ts.SyntaxKind.QuestionQuestionToken)
      return [...shownLiterals(node.left), ...shownLiterals(node.right)];
  }
  if (ts.isParenthesizedExpression(node)) return shownLiterals(node.expression);
  return [];
}

/** Where a file shows English of its own: line and text. */
function hardCodedWords(file: string, source: string): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) =>
    found.push(`${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${text.trim()}`);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && isWords(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const value = node.initializer;
      const texts = ts.isStringLiteral(value)
        ? [value.text]
        : ts.isJsxExpression(value) && value.expression
          ? shownLiterals(value.expression)
          : [];
      for (const text of texts) if (isWords(text)) report(node, text);
    }
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent))
      for (const text of shownLiterals(node.expression)) if (isWords(text)) report(node, text);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

const tsxFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? tsxFiles(join(dir, entry.name))
      : entry.name.endsWith('.tsx')
        ? [relative(SRC, join(dir, entry.name))]
        : [],
  );

describe('dashboard message catalogues', () => {
  const languages = readdirSync(LOCALES)
    .filter((name) => name.endsWith('.ts') && name !== 'en.ts')
    .map((name) => name.replace(/\.ts$/, ''));

  it('has German, and every language has exactly the keys of English, with the same parameters', async () => {
    expect(languages).toContain('de');
    const english = shape(en);
    for (const language of languages) {
      const catalogue = (await import(join(LOCALES, `${language}.ts`))).default;
      expect(shape(catalogue), language).toEqual(english);
    }
  });
});

describe('converted dashboard files', () => {
  const files = tsxFiles(SRC);

  it('show no English of their own: every word comes from the catalogue', () => {
    expect(files.length).toBeGreaterThan(25);
    const offenders = Object.fromEntries(
      files
        .map((file) => [file, hardCodedWords(file, readFileSync(join(SRC, file), 'utf8'))] as const)
        .filter(([, words]) => words.length > 0),
    );
    expect(offenders).toEqual({});
  });

  it('finds words in JSX text, read attributes and shown expressions, not in calls of the catalogue', () => {
    const source = `const A = () => (
      <p title="Hello there" class="x">
        Some words {busy ? 'Adding…' : t.add} {\`Page \${n}\`} {t.page(n)} {kind === 'session' && t.x}
        <input placeholder={t.search} id="q" /> <input placeholder="go.example.com" />
      </p>
    );`;
    expect(hardCodedWords('a.tsx', source)).toEqual(['2: Hello there', '3: Some words', '3: Adding…', '3: Page']);
  });
});

describe("the language picker's names (dashboard/build/language-names.ts)", () => {
  it('names every catalogue in its own language, as the browser would', () => {
    expect(catalogueTags()).toEqual(
      readdirSync(LOCALES)
        .map((file) => file.replace(/\.ts$/, ''))
        .sort(),
    );
    expect(languageNamesModule()).toBe('export const LANGUAGE_NAMES = {"de":"Deutsch","en":"English"};');
  });

  it('names a catalogue added to the folder, and only .ts files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'locales-'));
    for (const file of ['en.ts', 'fr.ts', 'pt-BR.ts', 'README.md']) writeFileSync(join(dir, file), '');
    expect(languageNamesModule(dir)).toBe(
      'export const LANGUAGE_NAMES = {"en":"English","fr":"français","pt-BR":"português (Brasil)"};',
    );
  });
});
