import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md "Where each SPEC rule lives" sends a newcomer from a spec rule to the one file
 * that implements it and the tests named after it: every path there must exist, and every named
 * describe block must be in its test file.
 */
const repository = fileURLToPath(new URL('../..', import.meta.url));
const architecture = readFileSync(join(repository, 'ARCHITECTURE.md'), 'utf8');

interface RuleRow {
  readonly rule: string;
  readonly files: string[];
  /** Each test the row cites: its file and the title of a describe block in it. */
  readonly tests: { readonly testFile: string; readonly describeBlock: string }[];
}

function ruleRows(): RuleRow[] {
  const section = architecture.split('## Where each SPEC rule lives')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    // Every row of the table, the header and its rule line aside: a rule beyond the spec is mapped too.
    .filter((line) => line.startsWith('| ') && !line.startsWith('| SPEC rule |'))
    .map((line) => {
      const [rule = '', file = '', test = ''] = line.split('|').slice(1).map((cell) => cell.trim());
      const files = [...file.matchAll(/`([^`(]+\.[a-z]+)`/g)].map((match) => match[1] ?? '');
      const tests = [...test.matchAll(/`([^`]+)` › `([^`]+)`/g)].map((match) => ({ testFile: match[1] ?? '', describeBlock: match[2] ?? '' }));
      return { rule, files, tests };
    });
}

/** The titles of a test file's describe blocks, as the runner shows them. */
function describeTitles(testFile: string): string[] {
  const source = readFileSync(join(repository, testFile), 'utf8');
  return [...source.matchAll(/describe\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)].map((match) => (match[2] ?? '').replace(/\\(.)/g, '$1'));
}

const rows = ruleRows();

describe('ARCHITECTURE.md maps every SPEC section §3–§9 to a file and a test', () => {
  it('has a row for each of SPEC §3 to §9', () => {
    const sections = new Set(rows.flatMap((row) => [...row.rule.matchAll(/§(\d)/g)].map((match) => Number(match[1]))));
    expect([...sections].sort()).toEqual(expect.arrayContaining([3, 4, 5, 6, 7, 8, 9]));
  });

  it.each(rows.map((row) => [row.rule, row] as const))('%s: every file exists and every test is a real describe block', (_rule, row) => {
    expect(row.files.length).toBeGreaterThan(0);
    expect(row.tests.length).toBeGreaterThan(0);
    for (const file of row.files) expect(existsSync(join(repository, file)), file).toBe(true);
    for (const { testFile, describeBlock } of row.tests) expect(describeTitles(testFile), testFile).toContain(describeBlock);
  });
});
