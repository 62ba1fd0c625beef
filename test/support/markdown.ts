// Fenced code blocks of the README and docs/, for the tests that run or check them as written.

export interface FencedBlock {
  /** The fence's info string (`sh`, `json`), '' when none. */
  lang: string;
  /** The lines between the fences, joined with '\n'. */
  code: string;
  /** 1-based line number of the opening fence. */
  line: number;
  /** The nearest `#`-heading above the block, without its hashes. */
  heading: string;
  /** The HTML comment on the last non-blank line before the fence (`schema: Code`), without `<!--` `-->`. */
  comment: string | null;
}

/** Every ``` fenced block of `markdown`, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) {
      const title = /^#+\s+(.*)$/.exec(lines[i]!);
      if (title) heading = title[1]!.trim();
      continue;
    }
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`the fence on line ${i + 1} is never closed`);
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const comment = before >= 0 ? /^<!--\s*(.*?)\s*-->$/.exec(lines[before]!.trim()) : null;
    blocks.push({
      lang: open[1]!,
      code: lines.slice(i + 1, end).join('\n'),
      line: i + 1,
      heading,
      comment: comment ? comment[1]! : null,
    });
    i = end;
  }
  return blocks;
}
