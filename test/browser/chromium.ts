import fs from 'node:fs';

// Browser tests run whenever Debian's chromium is installed, and say plainly when it is not.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumInstalled = fs.existsSync(CHROMIUM_PATH);

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `describe` when chromium is there; otherwise one skipped test whose name says why. */
export function describeInBrowser(name: string, fn: () => void): void {
  if (chromiumInstalled) {
    describe(name, fn);
  } else {
    describe(name, () => {
      test.skip(`SKIPPED: chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium)`, () => {});
    });
    if (!process.env.BROWSER_SKIP_WARNED) {
      process.env.BROWSER_SKIP_WARNED = '1';
      console.warn(`Browser tests SKIPPED: chromium is not installed at ${CHROMIUM_PATH}. Install it with: apt-get install -y chromium`);
    }
  }
}
