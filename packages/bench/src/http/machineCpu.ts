/** The whole machine's busy share over an interval, from /proc/stat: is the load generator or another tenant taking the cores? */
import { readFileSync } from 'node:fs';

/** Busy and total jiffies of every core together, from /proc/stat. */
export function machineJiffies(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

export const CORES = readFileSync('/proc/cpuinfo', 'utf8').split('\n').filter((l) => l.startsWith('processor')).length;

/** Given two readings of `machineJiffies`, returns the busy share in % of one core (200 % = both cores of two). */
export const machineCpuPercent = (before: { busy: number; total: number }, after: { busy: number; total: number }): number =>
  ((after.busy - before.busy) / (after.total - before.total)) * CORES * 100;
