import type { Knex } from 'knex';
import type { AdSlotName } from '../../../shared/ads';
import type { HouseAdForm } from './schemas';

// The house_ads table: what staff manage, and the choice of one ad for a slot.

export interface HouseAd {
  id: number;
  name: string;
  slot: AdSlotName;
  link_url: string;
  image_key: string;
  alt_text: string;
  /** YYYY-MM-DD, in the city's time zone, both ends included. */
  starts_on: string;
  ends_on: string | null;
  weight: number;
}

export type HouseAdFields = Omit<HouseAdForm, 'id'> & { image_key: string };

// Dates come back as text, whatever the driver would make of a date column.
const COLUMNS = ['id', 'name', 'slot', 'link_url', 'image_key', 'alt_text', 'weight', 'starts_on', 'ends_on'] as const;
const select = (db: Knex) => [...COLUMNS.filter((c) => !c.endsWith('_on')), db.raw(`to_char(starts_on, 'YYYY-MM-DD') as starts_on`), db.raw(`to_char(ends_on, 'YYYY-MM-DD') as ends_on`)];

export async function listHouseAds(db: Knex): Promise<HouseAd[]> {
  return db('house_ads').select(select(db)).orderBy([{ column: 'slot' }, { column: 'starts_on', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

export async function findHouseAd(db: Knex | Knex.Transaction, id: number): Promise<HouseAd | undefined> {
  return db('house_ads').where({ id }).first(select(db as Knex));
}

export async function insertHouseAd(db: Knex | Knex.Transaction, fields: HouseAdFields): Promise<number> {
  const [row] = await db('house_ads').insert({ ...fields, ends_on: fields.ends_on ?? null }).returning('id');
  return Number(row.id);
}

/** Answers false when there is no such ad. */
export async function updateHouseAd(db: Knex | Knex.Transaction, id: number, fields: Partial<HouseAdFields>): Promise<boolean> {
  const rows = await db('house_ads').where({ id }).update({ ...fields, ends_on: fields.ends_on ?? null, date_updated: db.fn.now() }).returning('id');
  return rows.length > 0;
}

export async function deleteHouseAd(db: Knex | Knex.Transaction, id: number): Promise<boolean> {
  const rows = await db('house_ads').where({ id }).delete().returning('id');
  return rows.length > 0;
}

/** The ads running in a slot on a day (starts_on <= day <= ends_on, or no end). */
export async function runningHouseAds(db: Knex, slot: AdSlotName, day: string): Promise<HouseAd[]> {
  return db('house_ads')
    .select(select(db))
    .where({ slot })
    .where('starts_on', '<=', day)
    .where((q) => q.whereNull('ends_on').orWhere('ends_on', '>=', day))
    .orderBy('id');
}

/** One ad, chosen with probability weight / total weight; random is in [0, 1). */
export function pickByWeight<T extends { weight: number }>(ads: readonly T[], random: number = Math.random()): T | null {
  const total = ads.reduce((s, a) => s + a.weight, 0);
  let point = random * total;
  for (const ad of ads) {
    point -= ad.weight;
    if (point < 0) return ad;
  }
  return ads.at(-1) ?? null;
}

/** Whether an ad runs on a day: 'running', 'scheduled' (not yet) or 'ended'. */
export function houseAdStatus(ad: Pick<HouseAd, 'starts_on' | 'ends_on'>, day: string): 'running' | 'scheduled' | 'ended' {
  if (ad.starts_on > day) return 'scheduled';
  if (ad.ends_on && ad.ends_on < day) return 'ended';
  return 'running';
}
