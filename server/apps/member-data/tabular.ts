import type { ZipStream } from './zip-stream';

// The member's rows as the files of the export: a JSON array and a CSV with a header row per
// table, written row by row from an async source (a batched query), so no file is ever held
// whole in memory.

export type Cell = string | number | boolean | Date | null | undefined;
export type Row = Record<string, Cell>;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvField(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = value instanceof Date ? value.toISOString() : String(value);
  // A leading =, +, - or @ would be run as a formula by a spreadsheet (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(values: Cell[]): string {
  return values.map(csvField).join(',') + '\r\n';
}

/** Writes `rows` as `{name}.json` (an array) and `{name}.csv` (header `columns`); returns the count. */
export async function writeTable(zip: ZipStream, name: string, columns: readonly string[], rows: () => AsyncIterable<Row>): Promise<number> {
  let count = 0;
  const json = zip.entry(`${name}.json`);
  await json.write('[');
  for await (const row of rows()) {
    await json.write(`${count ? ',' : ''}\n  ${JSON.stringify(pick(row, columns))}`);
    count++;
  }
  await json.write(count ? '\n]\n' : ']\n');
  await json.end();

  const csv = zip.entry(`${name}.csv`);
  // A byte order mark, so that spreadsheets read the file as UTF-8 (names with accents).
  await csv.write('\ufeff' + csvLine([...columns]));
  for await (const row of rows()) await csv.write(csvLine(columns.map((c) => row[c])));
  await csv.end();
  return count;
}

function pick(row: Row, columns: readonly string[]): Record<string, Cell> {
  return Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));
}

/** Writes a JSON value as one entry. */
export async function writeJson(zip: ZipStream, name: string, value: unknown): Promise<void> {
  await zip.file(name, JSON.stringify(value, null, 2) + '\n');
}
