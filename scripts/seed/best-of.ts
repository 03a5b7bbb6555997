import type { Knex } from 'knex';
import { slugify } from '../../shared/format/text';
import { insertBatches, insertReturningIds, type SlugRegistry } from './batch';
import { AUTHORS } from './article-templates';
import { insertArticles, publicationDate, type ArticleDraft, type ArticleRef } from './articles';
import type { ImagePool } from './images';
import type { ListingRef, TaxonomyIds } from './listings';
import type { Rng } from './random';

// Best Of lists name real listings: the candidates are the listings of a type, sub-type or
// feature, ranked by the smart review score the ratings produced, so lists agree with the
// ratings members see. Each list has its Best Of article (type best-of).

interface BestOfDef {
  title: string;
  type?: string;
  subTypes?: string[];
  feature?: string;
  types?: string[];
  noun: string;
}

export const BEST_OF_LISTS: BestOfDef[] = [
  { title: 'The best patios in Toronto', feature: 'patio', types: ['restaurants', 'bars', 'cafes'], noun: 'patios' },
  { title: 'The best bakeries in Toronto', type: 'bakeries', subTypes: ['bakeries'], noun: 'bakeries' },
  { title: 'The best pizza in Toronto', subTypes: ['pizza'], noun: 'pizza spots' },
  { title: 'The best sushi in Toronto', subTypes: ['sushi-japanese'], noun: 'sushi restaurants' },
  { title: 'The best ramen in Toronto', subTypes: ['ramen-noodles'], noun: 'ramen and noodle shops' },
  { title: 'The best pho in Toronto', subTypes: ['vietnamese'], noun: 'Vietnamese restaurants' },
  { title: 'The best Thai food in Toronto', subTypes: ['thai'], noun: 'Thai restaurants' },
  { title: 'The best Indian food in Toronto', subTypes: ['indian'], noun: 'Indian restaurants' },
  { title: 'The best Chinese food in Toronto', subTypes: ['chinese'], noun: 'Chinese restaurants' },
  { title: 'The best Korean food in Toronto', subTypes: ['korean'], noun: 'Korean restaurants' },
  { title: 'The best Italian restaurants in Toronto', subTypes: ['italian'], noun: 'Italian restaurants' },
  { title: 'The best tacos in Toronto', subTypes: ['mexican-latin'], noun: 'taquerias' },
  { title: 'The best shawarma in Toronto', subTypes: ['middle-eastern'], noun: 'shawarma spots' },
  { title: 'The best Greek food in Toronto', subTypes: ['greek-mediterranean'], noun: 'Greek restaurants' },
  { title: 'The best Caribbean food in Toronto', subTypes: ['caribbean'], noun: 'Caribbean restaurants' },
  { title: 'The best Ethiopian food in Toronto', subTypes: ['ethiopian-african'], noun: 'Ethiopian and African restaurants' },
  { title: 'The best burgers in Toronto', subTypes: ['burgers'], noun: 'burger joints' },
  { title: 'The best fried chicken in Toronto', subTypes: ['chicken-wings'], noun: 'chicken spots' },
  { title: 'The best BBQ in Toronto', subTypes: ['bbq-smokehouse'], noun: 'smokehouses' },
  { title: 'The best seafood in Toronto', subTypes: ['seafood'], noun: 'seafood restaurants' },
  { title: 'The best brunch in Toronto', subTypes: ['breakfast-brunch'], noun: 'brunch spots' },
  { title: 'The best vegan restaurants in Toronto', subTypes: ['vegetarian-vegan'], noun: 'vegetarian and vegan spots' },
  { title: 'The best delis and bagels in Toronto', subTypes: ['sandwiches-delis'], noun: 'delis' },
  { title: 'The best coffee shops in Toronto', type: 'cafes', subTypes: ['coffee'], noun: 'coffee shops' },
  { title: 'The best bubble tea in Toronto', type: 'cafes', subTypes: ['bubble-tea'], noun: 'bubble tea shops' },
  { title: 'The best cocktail bars in Toronto', type: 'bars', subTypes: ['cocktail-bars', 'lounges-clubs'], noun: 'cocktail bars' },
  { title: 'The best pubs in Toronto', type: 'bars', subTypes: ['pubs'], noun: 'pubs' },
  { title: 'The best sports bars in Toronto', type: 'bars', subTypes: ['sports-bars', 'pubs'], noun: 'sports bars' },
  { title: 'The best breweries in Toronto', type: 'bars', subTypes: ['breweries'], noun: 'breweries' },
  { title: 'The best ice cream in Toronto', type: 'bakeries', subTypes: ['ice-cream'], noun: 'ice cream shops' },
  { title: 'The best cake and pastry shops in Toronto', type: 'bakeries', subTypes: ['cakes-pastry'], noun: 'pastry shops' },
  { title: 'The best butcher shops in Toronto', type: 'food-shops', subTypes: ['butchers'], noun: 'butchers' },
  { title: 'The best late-night food in Toronto', feature: 'late-night', types: ['restaurants', 'take-out'], noun: 'late-night spots' },
];

const ITEM_BLURBS = [
  '{name} in {hood} has earned a loyal following, and it is easy to see why.',
  'Regulars keep coming back to {name} for its consistency and friendly service.',
  'A {hood} staple: {name} is worth the trip from anywhere in the city.',
  '{name} does one thing very well, and the line out the door proves it.',
  'Tucked away at {address}, {name} is a favourite of people who live nearby.',
  'The room at {name} is small, but the welcome is warm.',
  'Our readers rate {name} among the best in the city.',
];

export async function seedBestOfLists(
  db: Knex,
  opts: { rng: Rng; now: Date; timeZone: string; startYear: number; listings: ListingRef[]; taxonomy: TaxonomyIds; articleTypeIds: Map<string, number>; images: ImagePool; slugs: SlugRegistry; hoodNames: Map<number, string> },
): Promise<{ lists: number; items: number; articles: ArticleRef[] }> {
  const scores = new Map<number, number>();
  for (const r of await db('listings').select('id', 'smart_review_score')) scores.set(Number(r.id), Number(r.smart_review_score));
  const defs: Array<{ def: BestOfDef; picks: ListingRef[]; draft: ArticleDraft; popularity: number }> = [];
  for (const def of BEST_OF_LISTS) {
    const r = opts.rng.fork(`best-of:${def.title}`);
    const candidates = opts.listings.filter((l) => {
      // Editors' picks are independent places: no chain makes a Best of list.
      if (l.chain) return false;
      if (def.feature) return l.features.has(def.feature) && (!def.types || def.types.includes(l.type));
      if (def.type && l.type !== def.type) return false;
      if (!def.type && l.type !== 'restaurants' && l.type !== 'take-out') return false;
      return Boolean(l.subType && def.subTypes?.includes(l.subType));
    });
    if (candidates.length < 5) continue;
    // The 30 best by smart score (ties broken by the seed), of which 8-15 make the list.
    const ranked = r.shuffle(candidates).sort((a, b) => (scores.get(b.id) ?? 0) - (scores.get(a.id) ?? 0)).slice(0, 30);
    const picks = r.sample(ranked, Math.min(ranked.length, r.int(8, 15))).sort((a, b) => (scores.get(b.id) ?? 0) - (scores.get(a.id) ?? 0));
    const fillItem = (t: string, l: ListingRef) => t.replace('{name}', l.name).replace('{hood}', opts.hoodNames.get(l.neighbourhoodId ?? -1) ?? 'Toronto').replace('{address}', l.address);
    const intro = `Toronto has no shortage of ${def.noun}, but some stand out. We asked our readers, checked the ratings and went back again and again. Here are the ${def.noun} that made our list this year.`;
    const body = [intro, ...picks.map((l, i) => `${i + 1}. ${l.name}\n${fillItem(r.pick(ITEM_BLURBS), l)} Find it at ${l.address}.`)].join('\n\n');
    const pool = opts.images[picks[0].type] ?? opts.images['best-of'];
    defs.push({
      def,
      picks,
      popularity: r.int(200, 20_000),
      draft: {
        typeSlug: 'best-of',
        name: def.title,
        excerpt: intro,
        body,
        authorName: r.pick(AUTHORS),
        datePublished: publicationDate(r, opts.now, Math.max(opts.startYear, opts.now.getUTCFullYear() - 4), 0.5),
        imageKey: r.pick(opts.images['best-of'] ?? pool),
        isFeatured: r.chance(0.2),
        slides: r.chance(0.35) ? picks.map((l) => ({ title: l.name, caption: fillItem(r.pick(ITEM_BLURBS), l), image_key: r.pick(opts.images[l.type] ?? pool), listing_id: l.id })) : undefined,
      },
    });
  }
  const articles = await insertArticles(db, defs.map((d) => d.draft), opts.articleTypeIds, opts.slugs, opts.timeZone);
  const listRows = defs.map((d, i) => {
    const first = d.picks[0];
    const typeSlug = d.def.type ?? (d.def.feature ? undefined : first.type);
    const subTypeSlug = d.def.subTypes?.length === 1 ? d.def.subTypes[0] : undefined;
    return {
      title: d.def.title,
      slug: slugify(d.def.title),
      intro: d.draft.excerpt,
      article_id: articles[i].id,
      listing_type_id: typeSlug ? (opts.taxonomy.typeIds.get(typeSlug) ?? null) : null,
      listing_sub_type_id: typeSlug && subTypeSlug ? (opts.taxonomy.subTypeIds.get(`${typeSlug}/${subTypeSlug}`) ?? null) : null,
      popularity: d.popularity,
      image_key: d.draft.imageKey,
      date_published: d.draft.datePublished,
    };
  });
  const listIds = await insertReturningIds(db, 'best_of_lists', listRows);
  const items = defs.flatMap((d, i) =>
    d.picks.map((l, position) => ({ list_id: listIds[i], listing_id: l.id, position, blurb: d.draft.slides?.[position]?.caption ?? `${l.name} is one of the best ${d.def.noun} in Toronto.` })),
  );
  await insertBatches(db, 'best_of_list_items', items);
  await db('listings').whereIn('id', [...new Set(items.map((i) => i.listing_id))]).update({ appears_in_best_of_lists: true });
  return { lists: listRows.length, items: items.length, articles };
}
