import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { withoutParleySettings } from '../settings';

const LOG_TAIL_LINES = 40;

/** Server processes still running, killed if this Node process exits without stopping them. */
const runningChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function killChildrenOnExit(child: ChildProcess): void {
  runningChildren.add(child);
  child.once('exit', () => runningChildren.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const running of runningChildren) running.kill('SIGKILL');
  });
}

export interface ServerProcessOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Receives the lines the process prints that `forward` accepts (default: every line). */
  log?: (line: string) => void;
  forward?: (line: string) => boolean;
  /** Give the process a stdin pipe that stays open while this Node process lives (its end tells the server to go). */
  stdinPipe?: boolean;
}

/** One XMPP server child process (Prosody, ejabberd) in the foreground, and the last lines it printed. */
export class ServerProcess {
  readonly exited: Promise<void>;
  /** Set once the process has exited: its exit code or signal. */
  exitStatus: string | undefined;
  private readonly child: ChildProcess;
  private readonly recentOutput: string[] = [];

  constructor(binary: string, args: string[], options: ServerProcessOptions) {
    this.child = spawn(binary, args, { cwd: options.cwd, env: withoutParleySettings(options.env ?? process.env), stdio: [options.stdinPipe ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    killChildrenOnExit(this.child);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitStatus = signal === null ? `exit code ${code}` : `signal ${signal}`;
        resolve();
      });
      // Spawn failures emit 'error' and no 'exit'.
      this.child.once('error', (error) => {
        this.exitStatus = `could not run: ${error.message}`;
        resolve();
      });
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines.map((text) => text.trimEnd()).filter((text) => text !== '')) {
          this.recentOutput.push(line);
          if (this.recentOutput.length > LOG_TAIL_LINES) this.recentOutput.shift();
          if (options.forward?.(line) ?? true) options.log?.(line);
        }
      });
    }
  }

  /** True when one of the recent lines of output contains `text`. */
  /** The process's id while it runs. */
  get pid(): number | undefined {
    return this.exitStatus === undefined ? this.child.pid : undefined;
  }

  printed(text: string): boolean {
    return this.printedLine(text) !== undefined;
  }

  /** The most recent line of output that contains `text`. */
  printedLine(text: string): string | undefined {
    return this.recentOutput.findLast((line) => line.includes(text));
  }

  /** Asks the server to shut down (SIGTERM), and SIGKILLs it if it has not within the grace time. */
  async terminate(graceMs: number): Promise<void> {
    if (this.exitStatus !== undefined) return;
    this.child.kill('SIGTERM');
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace over'>((resolve) => {
      graceTimer = setTimeout(() => resolve('grace over'), graceMs);
    });
    const outcome = await Promise.race([this.exited, graceOver]);
    clearTimeout(graceTimer);
    if (outcome === 'grace over') await this.kill();
  }

  async kill(): Promise<void> {
    if (this.exitStatus === undefined) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** The console output followed by the end of the server's own log file. */
  async logTail(logFile: string): Promise<string> {
    const fileLines = await readFile(logFile, 'utf8').then(
      (text) => text.trimEnd().split('\n').slice(-LOG_TAIL_LINES),
      () => ['(no log file)'],
    );
    return [...this.recentOutput, ...fileLines].join('\n');
  }
}
