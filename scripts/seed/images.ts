import sharp from 'sharp';
import type { Storage } from '../../server/storage/storage';
import type { Rng } from './random';

// Demo pictures: a scene per section (plates on a table for restaurants, glasses and lights
// for bars, cups for cafes, a skyline for news, houses for real estate, a field for sports...),
// drawn as SVG from the seed and rendered to JPEG by sharp at seed time (no binary files in the
// repository, nothing downloaded). No text is baked in: captions belong in the HTML, and any
// crop of a picture (square thumbnails, 3:2 cards, the 80x80 renditions) stays whole. Stored
// through ctx.storage like any upload, so the media route resizes them the same way.

export const IMAGE_WIDTH = 1200;
export const IMAGE_HEIGHT = 800;
const W = IMAGE_WIDTH;
const H = IMAGE_HEIGHT;

type Motif = (rng: Rng, ink: string, light: string) => string;

interface Theme {
  key: string;
  colours: [string, string];
  /** What the scene shows; each picture of a theme draws it anew from its own seed. */
  motif: Motif;
  count: number;
}


/** Soft circles of light: the out-of-focus background of a photo. */
function bokeh(rng: Rng, n: number, colour = '#ffffff', max = 0.22): string {
  return Array.from({ length: n }, () => `<circle cx="${rng.int(0, W)}" cy="${rng.int(0, H)}" r="${rng.int(20, 140)}" fill="${colour}" fill-opacity="${(rng.int(4, Math.round(max * 100)) / 100).toFixed(2)}"/>`).join('');
}

/** A Toronto skyline with the tower, in one colour. */
function skyline(rng: Rng, colour: string, base = H, opacity = 0.45, tower = true): string {
  const parts: string[] = [];
  for (let x = 0; x < W; ) {
    const w = rng.int(40, 110);
    const h = rng.int(80, 300);
    parts.push(`<rect x="${x}" y="${base - h}" width="${w - 5}" height="${h}"/>`);
    x += w;
  }
  const tx = rng.int(250, 950);
  if (tower) parts.push(`<rect x="${tx - 10}" y="${base - 560}" width="20" height="560"/><ellipse cx="${tx}" cy="${base - 410}" rx="42" ry="22"/><rect x="${tx - 2}" y="${base - 690}" width="4" height="140"/>`);
  return `<g fill="${colour}" fill-opacity="${opacity}">${parts.join('')}</g>`;
}

/** Plates seen from above on a table, with a fork and knife beside some. */
const plates: Motif = (rng, ink, light) => {
  const out: string[] = [];
  for (let i = 0, n = rng.int(2, 4); i < n; i++) {
    const cx = rng.int(150, W - 150);
    const cy = rng.int(150, H - 150);
    const r = rng.int(110, 190);
    out.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="#fdfaf5"/><circle cx="${cx}" cy="${cy}" r="${Math.round(r * 0.72)}" fill="none" stroke="${ink}" stroke-opacity=".15" stroke-width="6"/>`);
    // The food: a few blobs in the dish's colours.
    for (let j = 0; j < rng.int(3, 7); j++) out.push(`<circle cx="${cx + rng.int(-Math.round(r / 2), Math.round(r / 2))}" cy="${cy + rng.int(-Math.round(r / 2), Math.round(r / 2))}" r="${rng.int(14, 42)}" fill="${rng.pick([ink, light, '#6a994e', '#f2cc8f', '#e07a5f'])}" fill-opacity=".85"/>`);
    if (rng.chance(0.6)) out.push(`<g stroke="#9aa0a6" stroke-width="10" stroke-linecap="round"><line x1="${cx + r + 30}" y1="${cy - r * 0.7}" x2="${cx + r + 30}" y2="${cy + r * 0.7}"/><line x1="${cx + r + 60}" y1="${cy - r * 0.7}" x2="${cx + r + 60}" y2="${cy + r * 0.7}"/></g>`);
  }
  return out.join('');
};

/** Glasses against bar lights. */
const glasses: Motif = (rng, ink, light) => {
  const out = [bokeh(rng, 14, light, 0.35)];
  for (let i = 0, n = rng.int(2, 4); i < n; i++) {
    const x = 150 + i * rng.int(220, 300);
    const top = rng.int(260, 380);
    const drink = rng.pick(['#f4a259', '#e63946', '#ffd166', '#90be6d']);
    out.push(`<path d="M${x - 80} ${top} h160 l-80 120 z" fill="${drink}" fill-opacity=".75" stroke="#fff" stroke-opacity=".7" stroke-width="5"/><line x1="${x}" y1="${top + 120}" x2="${x}" y2="${top + 260}" stroke="#fff" stroke-opacity=".7" stroke-width="8"/><line x1="${x - 55}" y1="${top + 262}" x2="${x + 55}" y2="${top + 262}" stroke="#fff" stroke-opacity=".7" stroke-width="8"/>`);
  }
  return out.join('') + `<rect y="${H - 120}" width="${W}" height="120" fill="${ink}" fill-opacity=".5"/>`;
};

/** Cups from above, with saucers and a spill of beans. */
const cups: Motif = (rng, ink) => {
  const out: string[] = [];
  for (let i = 0, n = rng.int(2, 3); i < n; i++) {
    const cx = rng.int(200, W - 200);
    const cy = rng.int(200, H - 200);
    out.push(`<circle cx="${cx}" cy="${cy}" r="150" fill="#fdfaf5" fill-opacity=".95"/><circle cx="${cx}" cy="${cy}" r="95" fill="#fff"/><circle cx="${cx}" cy="${cy}" r="78" fill="${ink}"/><circle cx="${cx - 15}" cy="${cy - 10}" r="30" fill="#e9c9a0" fill-opacity=".55"/><rect x="${cx + 90}" y="${cy - 18}" width="60" height="36" rx="18" fill="#fff"/>`);
  }
  for (let j = 0; j < 14; j++) out.push(`<ellipse cx="${rng.int(0, W)}" cy="${rng.int(0, H)}" rx="16" ry="11" fill="#3b2416" transform="rotate(${rng.int(0, 180)})"/>`);
  return out.join('');
};

/** Loaves and rolls on a board. */
const loaves: Motif = (rng) => {
  const out = [`<rect x="60" y="${H / 2 - 40}" width="${W - 120}" height="${H / 2 - 40}" rx="30" fill="#8d5b34" fill-opacity=".55"/>`];
  const n = rng.int(3, 5);
  for (let i = 0; i < n; i++) {
    const cx = 220 + Math.round((i * (W - 440)) / (n - 1));
    const cy = rng.int(H / 2 + 40, H - 160);
    const rx = rng.int(80, 120);
    out.push(`<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${Math.round(rx * 0.55)}" fill="${rng.pick(['#d4a055', '#c98a3c', '#e3b772'])}"/>`);
    for (let k = -1; k <= 1; k++) out.push(`<line x1="${cx + k * 35 - 15}" y1="${cy - 20}" x2="${cx + k * 35 + 15}" y2="${cy + 20}" stroke="#f7e3bd" stroke-width="8" stroke-linecap="round"/>`);
  }
  return out.join('');
};

/** Boxes and bags to go. */
const boxes: Motif = (rng, ink) => {
  const out: string[] = [];
  for (let i = 0, n = rng.int(3, 5); i < n; i++) {
    const x = rng.int(60, W - 300);
    const y = rng.int(200, H - 300);
    const w = rng.int(160, 260);
    out.push(`<path d="M${x} ${y} h${w} l-25 ${w} h-${w - 50} z" fill="${rng.pick(['#fdfaf5', '#f1e3c8', '#e8d5b0'])}" stroke="${ink}" stroke-opacity=".25" stroke-width="6"/><path d="M${x + w * 0.25} ${y} q${w * 0.25} -${w * 0.5} ${w * 0.5} 0" fill="none" stroke="${ink}" stroke-opacity=".4" stroke-width="8"/>`);
  }
  return out.join('');
};

/** Produce in crates. */
const produce: Motif = (rng) => {
  const out: string[] = [];
  for (let row = 0; row < 2; row++)
    for (let col = 0; col < 3; col++) {
      const x = 60 + col * 370;
      const y = 80 + row * 360;
      const fruit = rng.pick(['#e63946', '#f4a261', '#2a9d8f', '#e9c46a', '#6a994e', '#9d4edd']);
      out.push(`<rect x="${x}" y="${y}" width="340" height="320" rx="14" fill="#8d5b34" fill-opacity=".6"/>`);
      for (let k = 0; k < 9; k++) out.push(`<circle cx="${x + 60 + (k % 3) * 110 + rng.int(-10, 10)}" cy="${y + 60 + Math.floor(k / 3) * 100 + rng.int(-10, 10)}" r="${rng.int(38, 50)}" fill="${fruit}"/>`);
    }
  return out.join('');
};

const city: Motif = (rng) => bokeh(rng, 6) + skyline(rng, '#000000', H, 0.4) + skyline(rng, '#000000', H + 60, 0.3, false);

/** A street of houses with pitched roofs. */
const houses: Motif = (rng, ink) => {
  const out: string[] = [];
  for (let x = -20; x < W; ) {
    const w = rng.int(160, 240);
    const h = rng.int(220, 330);
    const c = rng.pick(['#f1faee', '#e9d8a6', '#ee9b00', '#94d2bd', '#fefae0', '#ddb892']);
    out.push(`<rect x="${x}" y="${H - h}" width="${w - 8}" height="${h}" fill="${c}"/><path d="M${x - 10} ${H - h} L${x + w / 2 - 4} ${H - h - 110} L${x + w + 2} ${H - h} z" fill="${ink}" fill-opacity=".8"/><rect x="${x + w / 2 - 30}" y="${H - 110}" width="52" height="110" fill="${ink}" fill-opacity=".6"/><rect x="${x + 25}" y="${H - h + 50}" width="50" height="60" fill="#fff" fill-opacity=".8"/>`);
    x += w;
  }
  return out.join('');
};

/** A playing field with its lines and a ball. */
const field: Motif = (rng) => {
  const cx = rng.int(400, 800);
  const cy = rng.int(250, 550);
  return `<rect width="${W}" height="${H}" fill="#2d6a4f" fill-opacity=".55"/><g fill="none" stroke="#fff" stroke-opacity=".75" stroke-width="8"><rect x="60" y="60" width="${W - 120}" height="${H - 120}"/><line x1="${W / 2}" y1="60" x2="${W / 2}" y2="${H - 60}"/><circle cx="${W / 2}" cy="${H / 2}" r="110"/></g><circle cx="${cx}" cy="${cy}" r="46" fill="#fff"/><circle cx="${cx + 14}" cy="${cy - 12}" r="14" fill="#1b1b1b"/>`;
};

/** Nodes and links: a circuit of light. */
const network: Motif = (rng, _ink, light) => {
  const pts = Array.from({ length: 18 }, () => [rng.int(40, W - 40), rng.int(40, H - 40)] as const);
  const links = pts.map((p, i) => {
    const q = pts[(i + rng.int(1, 4)) % pts.length];
    return `<path d="M${p[0]} ${p[1]} H${q[0]} V${q[1]}" fill="none" stroke="${light}" stroke-opacity=".6" stroke-width="5"/>`;
  });
  return links.join('') + pts.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="${rng.int(10, 22)}" fill="#fff" fill-opacity=".85"/>`).join('');
};

/** A horizon with the sun and a road running into it. */
const horizon: Motif = (rng) => {
  const sx = rng.int(300, 900);
  return `<circle cx="${sx}" cy="${H * 0.45}" r="${rng.int(90, 150)}" fill="#fff3b0" fill-opacity=".9"/><rect y="${H * 0.55}" width="${W}" height="${H * 0.45}" fill="#1d3557" fill-opacity=".55"/><path d="M${W / 2 - 40} ${H * 0.55} L${W / 2 + 40} ${H * 0.55} L${W / 2 + 330} ${H} L${W / 2 - 330} ${H} z" fill="#333" fill-opacity=".7"/><g stroke="#fff" stroke-width="10">${[0.62, 0.72, 0.84, 0.97].map((f) => `<line x1="${W / 2}" y1="${H * f - 20}" x2="${W / 2}" y2="${H * f}"/>`).join('')}</g>`;
};

/** Frames on a gallery wall. */
const gallery: Motif = (rng) => {
  const out: string[] = [];
  for (let i = 0, n = rng.int(3, 5); i < n; i++) {
    const w = rng.int(160, 300);
    const h = rng.int(180, 320);
    const x = 60 + i * rng.int(220, 280);
    const y = rng.int(80, H - h - 80);
    out.push(`<rect x="${x - 14}" y="${y - 14}" width="${w + 28}" height="${h + 28}" fill="#3d2b1f"/><rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${rng.pick(['#e76f51', '#2a9d8f', '#e9c46a', '#264653', '#f4a261', '#8ecae6'])}"/><circle cx="${x + w / 2}" cy="${y + h / 2}" r="${Math.min(w, h) / 4}" fill="#fff" fill-opacity=".35"/>`);
  }
  return out.join('');
};

/** Stage lights over a crowd. */
const stage: Motif = (rng, _ink, light) => {
  const beams = Array.from({ length: 4 }, (_, i) => {
    const x = 150 + i * 300;
    return `<path d="M${x} 0 L${x - 160} ${H} L${x + 160} ${H} z" fill="${light}" fill-opacity=".18"/>`;
  }).join('');
  const crowd = Array.from({ length: 26 }, (_, i) => `<circle cx="${i * 48 + rng.int(-10, 10)}" cy="${H - rng.int(40, 90)}" r="${rng.int(26, 36)}" fill="#000" fill-opacity=".55"/>`).join('');
  return bokeh(rng, 12, light, 0.4) + beams + crowd + `<rect y="${H - 60}" width="${W}" height="60" fill="#000" fill-opacity=".55"/>`;
};

/** Confetti around a star. */
const confetti: Motif = (rng) => {
  const bits = Array.from({ length: 60 }, () => `<rect x="${rng.int(0, W)}" y="${rng.int(0, H)}" width="${rng.int(10, 24)}" height="${rng.int(6, 12)}" fill="${rng.pick(['#e63946', '#ffd166', '#06d6a0', '#118ab2', '#fff'])}" transform="rotate(${rng.int(0, 90)} ${W / 2} ${H / 2})"/>`).join('');
  const cx = W / 2;
  const cy = H / 2;
  const star = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 ? 80 : 190;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    return `${Math.round(cx + r * Math.cos(a))},${Math.round(cy + r * Math.sin(a))}`;
  }).join(' ');
  return bits + `<polygon points="${star}" fill="#ffd166" stroke="#fff" stroke-width="8"/>`;
};

/** A strip of film frames. */
const film: Motif = (rng, _ink, light) => {
  const frames = Array.from({ length: 4 }, (_, i) => `<rect x="${70 + i * 275}" y="250" width="235" height="300" fill="${light}" fill-opacity="${(0.35 + rng.int(0, 40) / 100).toFixed(2)}"/>`).join('');
  const holes = Array.from({ length: 24 }, (_, i) => `<rect x="${20 + i * 50}" y="195" width="26" height="30" rx="4" fill="#fff" fill-opacity=".8"/><rect x="${20 + i * 50}" y="575" width="26" height="30" rx="4" fill="#fff" fill-opacity=".8"/>`).join('');
  return `<rect y="170" width="${W}" height="460" fill="#111" fill-opacity=".85"/>${holes}${frames}`;
};

/** Trees along a street: a neighbourhood. */
const trees: Motif = (rng) => {
  const out = [`<rect y="${H - 140}" width="${W}" height="140" fill="#555" fill-opacity=".5"/>`];
  for (let x = 60; x < W; x += rng.int(150, 230)) {
    const r = rng.int(80, 130);
    out.push(`<rect x="${x - 12}" y="${H - 300}" width="24" height="170" fill="#5c4033"/><circle cx="${x}" cy="${H - 300 - r * 0.6}" r="${r}" fill="${rng.pick(['#2d6a4f', '#40916c', '#52b788', '#74c69d'])}"/>`);
  }
  return skyline(rng, '#000000', H - 140, 0.25) + out.join('');
};

// 60 pictures in all; themes are listing types, article types and the other sections.
export const IMAGE_THEMES: Theme[] = [
  { key: 'restaurants', colours: ['#c0392b', '#f39c12'], motif: plates, count: 6 },
  { key: 'bars', colours: ['#2c3e50', '#8e44ad'], motif: glasses, count: 3 },
  { key: 'cafes', colours: ['#6f4e37', '#d2b48c'], motif: cups, count: 3 },
  { key: 'bakeries', colours: ['#e67e22', '#f7dc6f'], motif: loaves, count: 3 },
  { key: 'take-out', colours: ['#d35400', '#f1c40f'], motif: boxes, count: 3 },
  { key: 'food-shops', colours: ['#27ae60', '#a9dfbf'], motif: produce, count: 2 },
  { key: 'news', colours: ['#1f3a93', '#5dade2'], motif: city, count: 4 },
  { key: 'culture', colours: ['#8e44ad', '#f1948a'], motif: gallery, count: 3 },
  { key: 'food', colours: ['#b03a2e', '#f5b041'], motif: plates, count: 4 },
  { key: 'real-estate', colours: ['#117864', '#76d7c4'], motif: houses, count: 3 },
  { key: 'sports', colours: ['#1a5276', '#52be80'], motif: field, count: 3 },
  { key: 'tech', colours: ['#17202a', '#48c9b0'], motif: network, count: 3 },
  { key: 'travel', colours: ['#2874a6', '#f9e79f'], motif: horizon, count: 3 },
  { key: 'best-of', colours: ['#922b21', '#f4d03f'], motif: plates, count: 3 },
  { key: 'events', colours: ['#4a235a', '#ec7063'], motif: stage, count: 4 },
  { key: 'neighbourhoods', colours: ['#145a32', '#82e0aa'], motif: trees, count: 4 },
  { key: 'contests', colours: ['#b7950b', '#fdebd0'], motif: confetti, count: 2 },
  { key: 'videos', colours: ['#1b2631', '#e74c3c'], motif: film, count: 2 },
];

function svgFor(theme: Theme, rng: Rng): string {
  const [a, b] = theme.colours;
  const angle = rng.int(0, 1) ? 'x1="0" y1="0" x2="1" y2="1"' : 'x1="1" y1="0" x2="0" y2="1"';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<defs><linearGradient id="g" ${angle}><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="${W}" height="${H}" fill="url(#g)"/>${theme.motif(rng, a, b)}
</svg>`;
}

export type ImagePool = Record<string, string[]>;

/** Renders and stores the placeholders; answers their storage keys by theme. */
export async function generatePlaceholderImages(storage: Storage, rng: Rng): Promise<ImagePool> {
  const pool: ImagePool = {};
  const jobs: Array<Promise<void>> = [];
  for (const theme of IMAGE_THEMES) {
    pool[theme.key] = [];
    for (let i = 0; i < theme.count; i++) {
      const key = `seed/${theme.key}-${i + 1}.jpg`;
      pool[theme.key].push(key);
      const svg = svgFor(theme, rng.fork(key));
      jobs.push(
        sharp(Buffer.from(svg))
          .jpeg({ quality: 82, mozjpeg: true })
          .toBuffer()
          .then((buf) => storage.put(key, buf, 'image/jpeg')),
      );
    }
  }
  await Promise.all(jobs);
  return pool;
}

/** All keys of a pool, for places that take any image. */
export function allImages(pool: ImagePool): string[] {
  return Object.values(pool).flat();
}
