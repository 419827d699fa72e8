import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The names of a process's threads (Linux: /proc/<pid>/task/<tid>/comm). Node names a worker
 * thread `WorkerThread` (tesseract.js reads in one), libvips its pool `libvips worker`.
 */
export function threadNames(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      return [readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()];
    } catch {
      return []; // the thread ended while we looked
    }
  });
}

/** The ids of a process's children whose command line contains `match` (`vision.worker`: the vision workers). */
export function childProcesses(pid: number, match: string): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // ps answers 1 when the process has no children
  }
  return out
    .split('\n')
    .filter((line) => line.includes(match))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}
