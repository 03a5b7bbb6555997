// npx tsx scripts/build-icons.ts: the installable app's icons (static/img/icons/), drawn from
// our own artwork, static/img/favicon.svg (the red tile with the CN Tower), by sharp. The
// PNGs are committed; run this again only when the artwork changes. The maskable icon keeps
// the tower inside the 80% safe zone on the same red, so a launcher's circle or squircle
// crops only background.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { THEME_COLOR } from '../shared/constants';

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'static', 'img', 'favicon.svg');
const outDir = path.join(root, 'static', 'img', 'icons');

async function plain(size: number, file: string): Promise<void> {
  await sharp(fs.readFileSync(source), { density: (72 * size) / 32 }).resize(size, size).png({ compressionLevel: 9 }).toFile(path.join(outDir, file));
}

async function maskable(size: number, file: string): Promise<void> {
  const inner = Math.round(size * 0.7);
  const art = await sharp(fs.readFileSync(source), { density: (72 * inner) / 32 }).resize(inner, inner).png().toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: THEME_COLOR } })
    .composite([{ input: art, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(outDir, file));
}

async function main(): Promise<void> {
  fs.mkdirSync(outDir, { recursive: true });
  await plain(192, 'icon-192.png');
  await plain(512, 'icon-512.png');
  await plain(180, 'apple-touch-icon.png');
  await maskable(512, 'maskable-512.png');
  console.log(`icons written to ${path.relative(root, outDir)}`);
}

if (require.main === module) void main();
