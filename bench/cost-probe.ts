/**
 * What the A/B probes (booking-cost.ts, search-cost.ts) share: the checkouts named on the command
 * line, each with settings of its own, and a process's CPU time read from /proc — the figure the
 * machine's other load moves least, so two builds alternated in one run can be compared by it.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ROOT } from './processes.ts';

export interface Entry {
  /** The argument as given: what a summary over an entry's processes groups by. */
  arg: string;
  /** The argument, or with its position when the same one is given more than once. */
  label: string;
  root: string;
  env: Record<string, string>;
}

/** `<checkout>[,KEY=VALUE…]` per argument (this checkout when none): the same path may come twice. */
export function entriesOf(args: string[]): Entry[] {
  const given = args.length > 0 ? args : [ROOT];
  return given.map((arg, i) => {
    const [path, ...settings] = arg.split(',');
    return {
      arg,
      // The same entry given twice runs twice, in processes of its own: told apart by position.
      label: given.indexOf(arg) === i && given.lastIndexOf(arg) === i ? arg : `${arg} #${i + 1}`,
      root: resolve(path as string),
      env: Object.fromEntries(settings.map(keyValue)),
    };
  });
}

/**
 * Each entry `copies` times, interleaved (A B A B …): a Node process of one build can run a search
 * 20 % faster or slower than another of the same build (JIT and heap layout), so a comparison of
 * builds needs several processes of each.
 */
export function repeated(entries: Entry[], copies: number): Entry[] {
  if (copies <= 1) return entries;
  return Array.from({ length: copies }, (_, k) =>
    entries.map((e) => ({ ...e, label: `${e.label} #${k + 1}` })),
  ).flat();
}

/** `KEY=VALUE,…` of an environment variable, as an object. */
export function settingsOf(text: string | undefined): Record<string, string> {
  return Object.fromEntries((text ?? '').split(',').filter(Boolean).map(keyValue));
}

/** `KEY=VALUE` split at its first `=` (a value may hold more: `NODE_OPTIONS=--flag=1`). */
function keyValue(text: string): [string, string] {
  const at = text.indexOf('=');
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}

const TICK_MS = 1000 / 100; // USER_HZ

/** User + system CPU milliseconds of a process so far (0 once it is gone). */
export async function cpuMs(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * Pins every thread of a process to one CPU (`taskset`, util-linux), so two builds measured in
 * turn run on the same core and the load generator on the other does not take turns with them.
 */
export function pin(pid: number, cpu: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}
