// CPU time of processes on this machine, read from /proc: what the benchmarks report per request
// or per scan, for the service and for the database server beside it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU seconds (user + system, every thread) a process has used so far; null off Linux. */
export function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks of 1/100 s (USER_HZ on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The local database server's pid, so its CPU can be counted too (MariaDB or MySQL on this machine). */
export function databasePid(): number | undefined {
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      return Number(execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n')[0]);
    } catch {
      // not running under this name
    }
  }
  return undefined;
}
