// A process and every process under it, read from /proc (npm start runs node under a shell,
// tsx's command starts a second node).
import { readdirSync, readFileSync } from 'node:fs';

/** `root` and its descendants, parents before children. */
export function processTree(root: number): number[] {
  const parents = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        // The parent pid is the second field after the parenthesised command name.
        return [
          [Number(pid), Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1])] as const,
        ];
      } catch {
        return []; // gone meanwhile
      }
    });
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  return tree;
}
