import sharp from 'sharp';
import type { Storage } from '../../server/storage/storage';
import type { Rng } from './random';

// Placeholder photographs for the demo: gradients, soft shapes and a Toronto skyline
// silhouette with the section's name, drawn as SVG and rendered to JPEG by sharp at seed time
// (no binary files in the repository, nothing downloaded). Stored through ctx.storage like
// any upload, so the media route resizes them the same way.

export const IMAGE_WIDTH = 1200;
export const IMAGE_HEIGHT = 800;

interface Theme {
  key: string;
  label: string;
  colours: [string, string];
  count: number;
}

// 40 images in all; themes are listing types, article types and the other sections.
export const IMAGE_THEMES: Theme[] = [
  { key: 'restaurants', label: 'Restaurants', colours: ['#c0392b', '#f39c12'], count: 4 },
  { key: 'bars', label: 'Bars', colours: ['#2c3e50', '#8e44ad'], count: 2 },
  { key: 'cafes', label: 'Cafes', colours: ['#6f4e37', '#d2b48c'], count: 2 },
  { key: 'bakeries', label: 'Bakeries', colours: ['#e67e22', '#f7dc6f'], count: 2 },
  { key: 'take-out', label: 'Take-out', colours: ['#d35400', '#f1c40f'], count: 2 },
  { key: 'food-shops', label: 'Food Shops', colours: ['#27ae60', '#a9dfbf'], count: 1 },
  { key: 'news', label: 'News', colours: ['#1f3a93', '#5dade2'], count: 3 },
  { key: 'culture', label: 'Culture', colours: ['#8e44ad', '#f1948a'], count: 3 },
  { key: 'food', label: 'Food', colours: ['#b03a2e', '#f5b041'], count: 3 },
  { key: 'real-estate', label: 'Real Estate', colours: ['#117864', '#76d7c4'], count: 2 },
  { key: 'sports', label: 'Sports', colours: ['#1a5276', '#e74c3c'], count: 2 },
  { key: 'tech', label: 'Tech', colours: ['#17202a', '#48c9b0'], count: 2 },
  { key: 'travel', label: 'Travel', colours: ['#2874a6', '#f9e79f'], count: 2 },
  { key: 'best-of', label: 'Best of Toronto', colours: ['#922b21', '#f4d03f'], count: 2 },
  { key: 'events', label: 'Events', colours: ['#4a235a', '#ec7063'], count: 3 },
  { key: 'neighbourhoods', label: 'Neighbourhoods', colours: ['#145a32', '#82e0aa'], count: 3 },
  { key: 'contests', label: 'Contests', colours: ['#b7950b', '#fdebd0'], count: 1 },
  { key: 'videos', label: 'Videos', colours: ['#1b2631', '#e74c3c'], count: 1 },
];

/** A rough skyline with a tower: drawn from the seed, so each image differs a little. */
function skyline(rng: Rng, colour: string): string {
  const parts: string[] = [];
  let x = 0;
  while (x < IMAGE_WIDTH) {
    const w = rng.int(40, 110);
    const h = rng.int(60, 260);
    parts.push(`<rect x="${x}" y="${IMAGE_HEIGHT - h}" width="${w - 4}" height="${h}"/>`);
    x += w;
  }
  const tx = rng.int(300, 900);
  // The tower: a needle, a pod and a shaft.
  parts.push(`<rect x="${tx - 9}" y="${IMAGE_HEIGHT - 520}" width="18" height="520"/>`);
  parts.push(`<ellipse cx="${tx}" cy="${IMAGE_HEIGHT - 380}" rx="38" ry="20"/>`);
  parts.push(`<rect x="${tx - 2}" y="${IMAGE_HEIGHT - 640}" width="4" height="130"/>`);
  return `<g fill="${colour}" fill-opacity="0.35">${parts.join('')}</g>`;
}

function svgFor(theme: Theme, index: number, rng: Rng): string {
  const [a, b] = theme.colours;
  const circles = Array.from({ length: rng.int(3, 7) }, () => {
    const r = rng.int(40, 220);
    return `<circle cx="${rng.int(0, IMAGE_WIDTH)}" cy="${rng.int(0, IMAGE_HEIGHT - 200)}" r="${r}" fill="#ffffff" fill-opacity="${(rng.int(6, 20) / 100).toFixed(2)}"/>`;
  }).join('');
  const angle = rng.int(0, 1) ? 'x1="0" y1="0" x2="1" y2="1"' : 'x1="1" y1="0" x2="0" y2="1"';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}">
<defs><linearGradient id="g" ${angle}><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#g)"/>${circles}${skyline(rng, '#000000')}
<text x="70" y="150" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="84" font-weight="700" fill="#ffffff">${theme.label}</text>
<text x="74" y="210" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="32" fill="#ffffff" fill-opacity="0.85">Toronto · demo image ${index + 1}</text>
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
      const svg = svgFor(theme, i, rng.fork(key));
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
