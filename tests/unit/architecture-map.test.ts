import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md "Where each SPEC rule lives" sends a newcomer from a spec rule to the one file
 * that implements it and the test named after it: every path there must exist, and every named
 * describe block must be in its test file.
 */
const repository = fileURLToPath(new URL('../..', import.meta.url));
const architecture = readFileSync(join(repository, 'ARCHITECTURE.md'), 'utf8');

interface RuleRow {
  readonly rule: string;
  readonly file: string;
  readonly testFile: string;
  readonly describeBlock: string;
}

function ruleRows(): RuleRow[] {
  const section = architecture.split('## Where each SPEC rule lives')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    // Every row of the table, the header and its rule line aside: a rule beyond the spec is mapped too.
    .filter((line) => line.startsWith('| ') && !line.startsWith('| SPEC rule |'))
    .map((line) => {
      const [rule = '', file = '', test = ''] = line.split('|').slice(1).map((cell) => cell.trim());
      const quoted = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
      const [testFile = '', describeBlock = ''] = quoted(test);
      return { rule, file: quoted(file)[0] ?? '', testFile, describeBlock };
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

  it.each(rows.map((row) => [row.rule, row] as const))('%s: the file exists and the test is a real describe block', (_rule, row) => {
    expect(existsSync(join(repository, row.file)), row.file).toBe(true);
    expect(describeTitles(row.testFile)).toContain(row.describeBlock);
  });
});
