// Text that was UTF-8, read as Latin-1 or Windows-1252 and saved as UTF-8 again, once or more
// ("68Â°C", "CAFÃÂ PLENTY"). Nine DineSafe rows arrive that way. Each run of characters that
// spells a valid UTF-8 byte sequence in those code pages is decoded back; repeated until the
// text stops changing, since some rows went through the round trip twice or three times.

// Windows-1252 puts printable characters where Latin-1 has C1 controls (0x80-0x9F).
const CP1252_HIGH: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š',
  0x8b: '‹', 0x8c: 'Œ', 0x8e: 'Ž', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—',
  0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›', 0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};
const BYTE_OF = new Map<string, number>();
for (let b = 0x80; b <= 0xff; b++) BYTE_OF.set(String.fromCharCode(b), b);
for (const [b, ch] of Object.entries(CP1252_HIGH)) BYTE_OF.set(ch, Number(b));

const cls = (from: number, to: number) => {
  const chars: string[] = [];
  for (const [ch, b] of BYTE_OF) if (b >= from && b <= to) chars.push(ch);
  return `[${chars.map((c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('')}]`;
};
const CONT = cls(0x80, 0xbf);
// A lead byte and its continuation bytes: two-, three- and four-byte sequences.
const SEQUENCE = new RegExp(`${cls(0xc2, 0xdf)}${CONT}|${cls(0xe0, 0xef)}${CONT}{2}|${cls(0xf0, 0xf4)}${CONT}{3}`, 'g');

function decodeRun(run: string): string {
  const bytes = Buffer.from([...run].map((ch) => BYTE_OF.get(ch)!));
  const text = bytes.toString('utf8');
  // Not valid UTF-8 after all (a real "Ã©" typed on purpose is vanishingly rare, but keep it).
  return text.includes('\uFFFD') ? run : text;
}

/** "68Â°C Stone & Grill" -> "68°C Stone & Grill"; clean text is returned unchanged. */
export function repairMojibake(text: string): string {
  let current = text;
  for (let pass = 0; pass < 4; pass++) {
    const next = current.replace(SEQUENCE, decodeRun);
    if (next === current) break;
    current = next;
  }
  // What remains of a lost byte: C1 control characters never belong in a name.
  return current.replace(/[\u0080-\u009f]/g, '');
}
