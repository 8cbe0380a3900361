import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';

/**
 * One call of three or more people at a time across the workers of a Playwright run. Each person of
 * a mesh call encodes their camera once per other person: two such calls side by side on two cores
 * starved the pages so that one took 33 s to answer a look at a tile, and "everyone sees everyone"
 * failed on load, not on Parley. The worker that waits for the slot meanwhile runs nothing else; a
 * lighter test in the other worker goes on.
 *
 * The slot is a directory (mkdir is atomic) named after the run's runner process, holding the pid of
 * the worker that has it: a worker that died holding it (a crashed test) leaves it free.
 */
export class CrowdedCallSlot {
  private held = false;

  constructor(private readonly testInfo: TestInfo) {}

  /** Waits for the slot; the wait is added to the test's timeout, which covers the call only. */
  async take(): Promise<void> {
    if (this.held) return;
    const started = Date.now();
    while (!tryTake()) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    this.held = true;
    const waited = Date.now() - started;
    if (waited < POLL_MS) return;
    this.testInfo.annotations.push({ type: 'crowded call slot', description: `waited ${(waited / 1000).toFixed(1)} s for another test's call` });
    if (this.testInfo.timeout > 0) this.testInfo.setTimeout(this.testInfo.timeout + waited);
  }

  /** Frees the slot for another worker's call; the fixture's teardown does it if the test did not. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    rmSync(SLOT, { recursive: true, force: true });
  }
}

const POLL_MS = 250;
/** A slot directory without its owner file for this long was left by a worker that died while taking it. */
const UNOWNED_STALE_MS = 10_000;
const SLOT = join(tmpdir(), `parley-crowded-call-${process.ppid}`);
const OWNER = join(SLOT, 'owner');

function tryTake(): boolean {
  try {
    mkdirSync(SLOT);
  } catch {
    if (isStale()) rmSync(SLOT, { recursive: true, force: true });
    return false;
  }
  writeFileSync(OWNER, String(process.pid));
  return true;
}

function isStale(): boolean {
  try {
    const owner = Number(readFileSync(OWNER, 'utf8'));
    return !isAlive(owner);
  } catch {
    try {
      return Date.now() - statSync(SLOT).mtimeMs > UNOWNED_STALE_MS;
    } catch {
      return false;
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
