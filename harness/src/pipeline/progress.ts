/**
 * Progress on stderr: experiment, variant, parameters, done/total and an ETA from the average
 * time per finished benchmark. Rewrites one line on a terminal, prints lines otherwise (CI logs).
 */
import { formatDuration } from '../lib/format.js';

export class Progress {
  private done = 0;
  private spent = 0;
  private readonly tty: boolean;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = Boolean(out.isTTY) && !process.env.CI;
  }

  start(label: string): void {
    const eta = this.done ? ` · ETA ${formatDuration((this.spent / this.done) * (this.total - this.done))}` : '';
    const line = `[${this.done + 1}/${this.total}] ${label}${eta}`;
    if (this.tty) this.out.write(`\r\x1b[2K${line.slice(0, (this.out.columns ?? 120) - 1)}`);
    else this.out.write(`${line}\n`);
  }

  finish(seconds: number, status: string): void {
    this.done++;
    this.spent += seconds;
    if (!this.tty && status !== 'ok') this.out.write(`    -> ${status}\n`);
    if (this.tty && status !== 'ok') this.out.write(`\r\x1b[2K    ${status}\n`);
  }

  end(): void {
    if (this.tty) this.out.write('\r\x1b[2K');
  }

  log(msg: string): void {
    if (this.tty) this.out.write('\r\x1b[2K');
    this.out.write(`${msg}\n`);
  }
}
