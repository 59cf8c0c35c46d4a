/** What the data commands read and write besides the CLI's text io: byte streams and the terminal. */
import type { Readable, Writable } from 'node:stream';
import type { CliIo } from '../runCli.js';

/** The CLI io plus the streams the data commands move data through; defaults are the process's. */
export interface DataIo extends CliIo {
  /** Where `tenure export` without `--out` writes, with backpressure; default `process.stdout`. */
  stdoutStream?: Writable;
  /** What `tenure import -` reads; default `process.stdin`. */
  stdinStream?: Readable;
  /** Draw a progress bar redrawn in place; default `process.stderr.isTTY`. */
  progressTty?: boolean;
}

/**
 * Given the io, returns how progress is drawn: as a bar on a terminal (cut to its width), or as
 * plain lines.
 *
 * @example
 * createProgressReporter({ label: 'replay', unit: 'subscribers', write: io.stderr, ...progressDisplay(io) });
 */
export function progressDisplay(io: DataIo): { tty: boolean; columns: number | undefined } {
  return { tty: io.progressTty ?? process.stderr.isTTY === true, columns: io.progressTty === undefined ? process.stderr.columns : undefined };
}

