import type { Db } from '../../db';

export async function latestArticles(db: Db, limit: number) {
  return db('articles as a')
    .join('article_types as t', 't.id', 'a.type_id')
    .where('a.status', 'published')
    .orderBy([{ column: 'a.date_published', order: 'desc' }, { column: 'a.id', order: 'desc' }])
    .limit(limit)
    .select('a.id', 'a.name', 'a.path', 'a.excerpt', 'a.image_key', 'a.date_published', 't.name as type_name', 't.slug as type_slug');
}

export async function siteTotals(db: Db) {
  const [listings, neighbourhoods, events] = await Promise.all([
    db('listings').count<{ n: number }[]>({ n: '*' }).first(),
    db('neighbourhoods').count<{ n: number }[]>({ n: '*' }).first(),
    db('events').where('status', 'approved').count<{ n: number }[]>({ n: '*' }).first(),
  ]);
  return { listings: Number(listings?.n ?? 0), neighbourhoods: Number(neighbourhoods?.n ?? 0), events: Number(events?.n ?? 0) };
}

export async function allNeighbourhoods(db: Db) {
  return db('neighbourhoods').select('id', 'name', 'slug').orderBy('name');
}
