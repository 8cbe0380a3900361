import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md "Threads and folders": lint refuses an import that crosses a thread boundary.
 * Each case plants a probe file inside a guarded folder, lints it with the project's own
 * eslint.config.js, and removes it again.
 */
const repository = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: repository });

interface ProbeResult {
  readonly boundaryErrors: number;
  readonly otherMessages: string[];
}

/** Lints `import * as probe from '<target>'` (or its type-only form) from a new file in `folder`. */
async function lintImport(folder: string, target: string, typeOnly = false): Promise<ProbeResult> {
  const file = join(repository, folder, `boundary-probe-${randomUUID()}.ts`);
  const source = typeOnly
    ? `import type * as probe from '${target}';\nexport type { probe };\n`
    : `import * as probe from '${target}';\nexport { probe };\n`;
  await writeFile(file, source);
  try {
    const [result] = await eslint.lintFiles([file]);
    const messages = result?.messages ?? [];
    return {
      boundaryErrors: messages.filter((message) => message.ruleId === 'no-restricted-imports' && message.message.includes('Thread boundary')).length,
      otherMessages: messages.filter((message) => message.ruleId !== 'no-restricted-imports').map((message) => `${message.ruleId}: ${message.message}`),
    };
  } finally {
    await rm(file, { force: true });
  }
}

interface Boundary {
  readonly rule: string;
  /** Where the probe is planted. */
  readonly folder: string;
  readonly refused: readonly string[];
  readonly allowed: readonly string[];
}

const boundaries: readonly Boundary[] = [
  {
    rule: 'src/common imports nothing of ours',
    folder: 'src/common',
    refused: ['../protocol/errors', '../main-thread/SessionBridge', '../shared-worker/TabsApi'],
    allowed: ['./clock', 'comlink'],
  },
  {
    rule: 'src/protocol imports nothing of ours',
    folder: 'src/protocol',
    refused: ['../common/clock', '../main-thread/SessionBridge', '../shared-worker/TabsApi', '../worker/VoiceAnalysisService', '../ui/route', '../../server/settings'],
    allowed: ['./constants', 'stanza'],
  },
  {
    rule: 'src/protocol/stanzas imports nothing of ours but protocol',
    folder: 'src/protocol/stanzas',
    refused: ['../../common/clock', '../../shared-worker/TabsApi'],
    allowed: ['../addresses', './index'],
  },
  {
    rule: 'the main thread reaches the shared worker and the analysis worker only through protocol',
    folder: 'src/main-thread',
    refused: ['../shared-worker/TabsApi', '../worker/VoiceAnalysisService', '../ui/route'],
    allowed: ['../protocol/commands', '../common/clock', './sessionAtoms'],
  },
  {
    rule: 'the shared worker reaches the tabs only through protocol',
    folder: 'src/shared-worker/rooms',
    refused: ['../../main-thread/SessionBridge', '../../worker/VoiceAnalysisService', '../../ui/route'],
    allowed: ['../../protocol/commands', '../../common/clock', '../SessionContext'],
  },
  {
    rule: 'the analysis worker imports only protocol and common',
    folder: 'src/worker',
    refused: ['../main-thread/SessionBridge', '../shared-worker/TabsApi', '../ui/route'],
    allowed: ['../protocol/analysisWorker', '../common/clock', './VoiceAnalysisService'],
  },
  {
    rule: 'the UI never reaches the shared worker nor the analysis worker, nor Comlink or the XMPP client',
    folder: 'src/ui',
    refused: ['../shared-worker/TabsApi', '../worker/VoiceAnalysisService', 'comlink', 'stanza/JID'],
    allowed: ['../main-thread/ParleyTab', '../protocol/entities', './route', 'jotai'],
  },
  {
    rule: 'the server shares only protocol and common with the browser',
    folder: 'server/gateway',
    refused: ['../../src/main-thread/SessionBridge', '../../src/shared-worker/TabsApi', '../../src/worker/VoiceAnalysisService', '../../src/ui/route'],
    allowed: ['../../src/protocol/constants', '../../src/common/clock', '../settings'],
  },
];

for (const boundary of boundaries) {
  describe(`Thread boundary: ${boundary.rule}`, () => {
    it.each(boundary.refused)(`lint refuses an import of %s planted in ${boundary.folder}`, async (target) => {
      const result = await lintImport(boundary.folder, target);
      expect(result.boundaryErrors).toBe(1);
      expect(result.otherMessages).toEqual([]);
    });

    it(`lint refuses a type-only import across the boundary from ${boundary.folder} too`, async () => {
      const result = await lintImport(boundary.folder, boundary.refused[0] ?? '', true);
      expect(result.boundaryErrors).toBe(1);
    });

    it.each(boundary.allowed)(`lint accepts an import of %s planted in ${boundary.folder}`, async (target) => {
      const result = await lintImport(boundary.folder, target);
      expect(result).toEqual({ boundaryErrors: 0, otherMessages: [] });
    });
  });
}
