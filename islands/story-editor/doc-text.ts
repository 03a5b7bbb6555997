import type { StoryNode } from '../../shared/newsroom';

// A body's plain text, one line a block (captions and card names included), for showing two
// versions side by side and for comparing revisions word by word.

const BLOCKS = new Set(['paragraph', 'heading', 'listItem', 'blockquote']);

export function docPlainText(node: StoryNode | null | undefined): string {
  if (!node) return '';
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    if (line.trim()) lines.push(line.trim());
    line = '';
  };
  const walk = (n: StoryNode) => {
    const a = n.attrs ?? {};
    if (n.type === 'text') line += n.text ?? '';
    else if (n.type === 'hardBreak') line += ' ';
    else if (n.type === 'image') lines.push(`[Picture${a.caption ? `: ${String(a.caption)}` : ''}]`);
    else if (n.type === 'gallery') lines.push(`[Gallery of ${Array.isArray(a.items) ? a.items.length : 0}]`);
    else if (n.type === 'youtube') lines.push(`[Video ${String(a.videoId)}${a.caption ? `: ${String(a.caption)}` : ''}]`);
    else if (n.type === 'liveCard') lines.push(`[Card: ${String(a.label)}]`);
    else if (n.type === 'horizontalRule') lines.push('―');
    for (const c of n.content ?? []) walk(c);
    if (BLOCKS.has(n.type)) flush();
  };
  walk(node);
  flush();
  return lines.join('\n');
}

export type DiffPart = { op: 'same' | 'add' | 'del'; text: string };

/** A word diff (longest common subsequence; the common head and tail are skipped first). */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = before.split(/(\s+)/).filter(Boolean);
  const b = after.split(/(\s+)/).filter(Boolean);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += text;
    else parts.push({ op, text });
  };
  if (head) push('same', a.slice(0, head).join(''));
  if (x.length * y.length > 4_000_000) {
    // Too long to compare word by word in a browser tab: the changed middle as a whole.
    push('del', x.join(''));
    push('add', y.join(''));
  } else {
    const n = x.length;
    const m = y.length;
    const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (x[i] === y[j]) {
        push('same', x[i]);
        i++;
        j++;
      } else if (lcs[i + 1][j] >= lcs[i][j + 1]) push('del', x[i++]);
      else push('add', y[j++]);
    }
    while (i < n) push('del', x[i++]);
    while (j < m) push('add', y[j++]);
  }
  if (tail) push('same', a.slice(a.length - tail).join(''));
  return parts;
}
