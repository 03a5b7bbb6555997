// npx tsx scripts/bench/wxr-generate.ts OUT.xml [--mb 200]
// Writes a WordPress export (WXR) of about the given size, for measuring the import's memory
// (npm run import:wordpress reads it as a stream, so its peak should not grow with the file):
//
//   npx tsx scripts/bench/wxr-generate.ts /tmp/wxr-200.xml --mb 200
//   DATA_DIR=/tmp/wxr-bench /usr/bin/time -v npm run import:wordpress -- /tmp/wxr-200.xml
//
// Posts of every shape the import handles (paragraphs as blank lines, captions, galleries,
// embeds, shortcodes, tables, scripts, lists), each about 20 KB, with attachments, pages and
// drafts among them. Written as a stream too.
import fs from 'node:fs';
import { once } from 'node:events';
import { WXR_FOOTER, WXR_SITE, wxrHeader, wxrItem } from '../../server/apps/newsroom/test-wxr';

const WORDS = 'toronto patio brunch streetcar ravine condo festival gallery bakery harbourfront ferry island market neighbourhood laneway mural hockey subway diner'.split(' ');

function sentence(seed: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(seed * 31 + i * 7) % WORDS.length]);
  return out.join(' ');
}

function content(id: number): string {
  const U = `${WXR_SITE}/wp-content/uploads/2019/05`;
  const parts: string[] = [];
  for (let i = 0; i < 40; i++) {
    const s = sentence(id + i, 60);
    switch (i % 10) {
      case 1: parts.push(`<strong>${s}</strong> and <a href="https://example.com/${id}/${i}">a link</a>, <a href="javascript:alert(${i})">not one</a>.`); break;
      case 2: parts.push(`[caption id="attachment_${id}" width="300"]<img src="${U}/pic-${id % 50}-300x200.jpg" alt="${s.slice(0, 40)}" /> ${s.slice(0, 80)} Photo by Someone[/caption]`); break;
      case 3: parts.push(`<ul>\n<li>${s}\n<ul><li>nested ${i}</li></ul></li>\n<li>two</li>\n</ul>`); break;
      case 4: parts.push(`<table><tr><td>${s}</td></tr></table>`); break;
      case 5: parts.push(`<script>alert(${i})</script>${s}`); break;
      case 6: parts.push('https://www.youtube.com/watch?v=dQw4w9WgXcQ'); break;
      case 7: parts.push(`[gallery ids="${id + 1},${id + 2}"] [contact-form-7 id="${i}"]`); break;
      case 8: parts.push(`<h3>${s.slice(0, 60)}</h3>\n<blockquote>${s}</blockquote>`); break;
      default: parts.push(`${s}\n${sentence(id * i, 40)}`);
    }
  }
  return parts.join('\n\n');
}

async function main() {
  const args = process.argv.slice(2);
  const out = args.find((a) => !a.startsWith('--'));
  const mbAt = args.indexOf('--mb');
  const targetMb = mbAt >= 0 ? Number(args[mbAt + 1]) : 200;
  if (!out || !(targetMb > 0)) throw new Error('usage: npx tsx scripts/bench/wxr-generate.ts OUT.xml [--mb 200]');
  const target = targetMb * 1024 * 1024;
  const stream = fs.createWriteStream(out);
  let written = 0;
  const write = async (s: string) => {
    written += Buffer.byteLength(s);
    if (!stream.write(s)) await once(stream, 'drain');
  };
  const cats = [{ nicename: 'food', name: 'Food' }, { nicename: 'culture', name: 'Culture' }, { nicename: 'uncategorized', name: 'Uncategorized' }];
  await write(wxrHeader([{ login: 'ana', email: 'ana@example.com', displayName: 'Ana Ruiz' }], cats));
  let id = 1;
  let posts = 0;
  while (written < target) {
    if (id % 100 === 3) await write(wxrItem({ id, title: `Attachment ${id}`, type: 'attachment', attachmentUrl: `${WXR_SITE}/wp-content/uploads/2019/05/pic-${id % 50}.jpg` }));
    else if (id % 500 === 7) await write(wxrItem({ id, title: `Page ${id}`, type: 'page', slug: `page-${id}`, content: 'A page.' }));
    else {
      const month = String((id % 12) + 1).padStart(2, '0');
      await write(wxrItem({
        id,
        title: `Post ${id}: ${sentence(id, 6)}`,
        slug: `post-${id}`,
        date: `2019-${month}-17 10:00:00`,
        dateGmt: `2019-${month}-17 14:00:00`,
        link: `${WXR_SITE}/2019/${month}/17/post-${id}/`,
        status: id % 20 === 0 ? 'draft' : 'publish',
        creator: 'ana',
        categories: [cats[id % 3]],
        content: content(id),
        meta: id % 4 === 0 ? { _thumbnail_id: String(id - (id % 100) + 3) } : {},
      }));
      posts++;
    }
    id++;
  }
  await write(WXR_FOOTER);
  stream.end();
  await once(stream, 'finish');
  console.log(`${out}: ${(written / 1024 / 1024).toFixed(0)} MB, ${posts} posts, ${id - 1} items`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
