import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** CPU seconds (user + system) process `pid` has used, from /proc (Linux); NaN elsewhere or once it has gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command (which may hold spaces) in parentheses; utime and stime are the 14th and 15th
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return NaN;
  }
}

/** CPU seconds used by each `postgres` process of the machine (the server and its backends), by pid. */
function postgresCpuSeconds(): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') seconds.set(Number(entry), cpuSeconds(Number(entry)) || 0);
    } catch {
      // gone meanwhile
    }
  }
  return seconds;
}

/** CPU milliseconds per operation by process, their total, and the operations per second the machine's cores could serve at that cost. */
export interface CpuPerOperation {
  perOp: Array<[name: string, ms: number]>;
  total: number;
  ceiling: number;
}

/**
 * Where the CPU of a phase went, from its creation to `measure(n)`: CPU milliseconds per operation of
 * each named process, of postgres (the processes alive at the end; a backend that exited meanwhile
 * is not counted) and of this (load-generating) process, and how many operations per second the
 * machine's cores could serve at that cost (`measure(n)`; `describeCpu` says it in a line).
 */
export function cpuAccount(processes: Record<string, number>) {
  const read = () => {
    const own = process.cpuUsage();
    return {
      named: Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuSeconds(pid)])),
      postgres: postgresCpuSeconds(),
      self: (own.user + own.system) / 1e6,
    };
  };
  const before = read();
  const measure = (operations: number): CpuPerOperation => {
    const after = read();
    let postgres = 0;
    for (const [pid, s] of after.postgres) postgres += s - (before.postgres.get(pid) ?? 0);
    const seconds: Array<[string, number]> = [
      ...Object.entries(after.named).map(([name, s]) => [name, s - before.named[name]] as [string, number]),
      ['postgres', postgres],
      ['load generator', after.self - before.self],
    ];
    const perOp = seconds.map(([name, s]): [string, number] => [name, (s * 1000) / operations]);
    const total = perOp.reduce((sum, [, ms]) => sum + (Number.isFinite(ms) ? ms : 0), 0);
    return { perOp, total, ceiling: (cpus().length * 1000) / total };
  };
  return { measure };
}

/** A line: CPU ms per operation of each process, their total and the rate the cores could serve. */
export function describeCpu({ perOp, total, ceiling }: CpuPerOperation): string {
  const parts = perOp.map(([name, ms]) => `${name} ${Number.isFinite(ms) ? ms.toFixed(2) : '?'}`).join(', ');
  return `CPU ms per operation: ${parts}; total ${total.toFixed(2)} → at most ${Math.round(ceiling)}/s on ${cpus().length} cores`;
}
