import type { Knex } from 'knex';
import { insertArticles, type ArticleDraft, type ArticleRef } from './articles';
import type { SlugRegistry } from './batch';
import type { ImagePool } from './images';
import type { Rng } from './random';

// The cannabis section (behind the age gate, /cannabis/): a handful of written-out articles
// rather than template text, because the section is small and each piece is read whole.
// Its article type is not in the menu's ARTICLE_TYPES (the navbar and feeds leave it out).

export const CANNABIS_TYPE = { slug: 'cannabis', name: 'Cannabis' } as const;

interface CannabisStory {
  name: string;
  excerpt: string;
  paragraphs: string[];
  daysAgo: number;
  featured?: boolean;
}

export const CANNABIS_STORIES: CannabisStory[] = [
  {
    name: 'What to know before you buy cannabis legally in Toronto',
    excerpt: 'Licensed stores, the online provincial store, how much you can carry and where you can and cannot light up: a plain guide for first-time buyers.',
    daysAgo: 3,
    featured: true,
    paragraphs: [
      'Licensed stores, the online provincial store, how much you can carry and where you can and cannot light up: a plain guide for first-time buyers.',
      'In Ontario, legal cannabis is sold in two places only: stores licensed by the provincial regulator, which must display their licence near the entrance, and the province’s own online store. A storefront that cannot show you a licence is not a legal one, however polished its shelves look.',
      'You must be 19 or older to buy, carry or use cannabis in Ontario, and staff will ask for government photo ID at the door, not just at the till. An adult may carry up to 30 grams of dried flower, or its equivalent in other products, in public.',
      'Smoking and vaping follow most of the same rules as tobacco. They are not allowed in enclosed workplaces, on patios of bars and restaurants, near playgrounds, on school grounds or in a vehicle, parked or not. Many condo boards and landlords add their own limits, so read your lease.',
      'If it is your first purchase, ask the staff to explain the THC and CBD numbers on the label, and start with a low dose: edibles in particular can take up to two hours to take effect.',
    ],
  },
  {
    name: 'A beginner’s glossary of cannabis labels',
    excerpt: 'Indica, sativa, THC, CBD, terpenes: what the words on a Canadian cannabis package mean, and which of them actually tell you something.',
    daysAgo: 11,
    paragraphs: [
      'Indica, sativa, THC, CBD, terpenes: what the words on a Canadian cannabis package mean, and which of them actually tell you something.',
      'THC is the compound that produces the high; CBD does not intoxicate and is often sold for its own sake. Canadian labels show both as a percentage for dried flower and in milligrams for oils, capsules and edibles, with a total that includes what heating the product will convert.',
      'Indica and sativa began as botanical names and became marketing shorthand for a relaxing or an energising effect. Growers have crossed the two for decades, so most products are hybrids, and the name predicts less than the THC and CBD figures do.',
      'Terpenes are the aromatic compounds that make one strain smell of pine and another of citrus. Some stores list the dominant ones; they are useful for finding products you liked before, less so for predicting effects.',
      'Every legal package carries the yellow health warning, the red THC symbol and an excise stamp whose colour shows the province. A package without them did not come from the legal market.',
    ],
  },
  {
    name: 'Cannabis edibles: why the first one should be the smallest',
    excerpt: 'Edibles are capped at 10 mg of THC per package in Canada, and most people need far less. How dosing, timing and storage differ from smoking.',
    daysAgo: 19,
    paragraphs: [
      'Edibles are capped at 10 mg of THC per package in Canada, and most people need far less. How dosing, timing and storage differ from smoking.',
      'When cannabis is eaten, the liver turns THC into a compound that acts longer and often more strongly than smoked cannabis. Effects can take thirty minutes to two hours to appear and may last six hours or more, which is why impatient second helpings are the classic mistake.',
      'Health Canada suggests that new users start with 2.5 mg of THC or less, a quarter of a typical package. Wait at least two hours before deciding you need more, and do not mix edibles with alcohol.',
      'Chocolates, gummies and baked goods look like ordinary treats. Keep them in their child-resistant packaging, out of reach and out of sight; if a child or a pet eats one, call the Ontario Poison Centre or a veterinarian straight away.',
    ],
  },
  {
    name: 'Where you can and cannot consume cannabis in the city',
    excerpt: 'Parks, sidewalks, balconies and patios: the rules are provincial, the enforcement is municipal, and the fines are real.',
    daysAgo: 27,
    paragraphs: [
      'Parks, sidewalks, balconies and patios: the rules are provincial, the enforcement is municipal, and the fines are real.',
      'Ontario allows adults to smoke or vape cannabis in many of the places where tobacco smoking is allowed, including most sidewalks and many city parks. It is banned within nine metres of a patio, at bus shelters and transit platforms, on hospital grounds, near children’s play areas and sports fields, and at school grounds.',
      'At home the rules belong to your building. A lease signed after legalisation may forbid smoking cannabis on the premises, and condominium declarations can ban it on balconies as well as inside units.',
      'Driving after consuming is impaired driving under the Criminal Code, and drivers under 21 or with a novice licence must have no cannabis in their system at all. Plan a ride home before the evening starts.',
    ],
  },
  {
    name: 'Growing cannabis at home: the four-plant rule explained',
    excerpt: 'Adults in Ontario may grow up to four plants per household, from legally bought seeds or clones. What that allows, and what it does not.',
    daysAgo: 41,
    paragraphs: [
      'Adults in Ontario may grow up to four plants per household, from legally bought seeds or clones. What that allows, and what it does not.',
      'The limit is per household, not per person: a house with three adults may still grow four plants in all. Seeds and seedlings must come from a licensed seller, and what you harvest is for your own use; selling or trading it is not allowed.',
      'Landlords and condominium corporations can prohibit growing, and insurers may ask about it. Indoor growers should think about humidity and ventilation as much as light, since mould is the most common problem in small spaces.',
      'Keep plants away from where children can reach them, and remember the possession limit still applies when you carry your own harvest outside the home.',
    ],
  },
  {
    name: 'Cannabis and your health: questions worth asking a pharmacist',
    excerpt: 'Medications, pregnancy, mental health and driving: the questions to raise before you try cannabis, and where to find answers that are not sales pitches.',
    daysAgo: 58,
    paragraphs: [
      'Medications, pregnancy, mental health and driving: the questions to raise before you try cannabis, and where to find answers that are not sales pitches.',
      'Cannabis can interact with common medications, including blood thinners, sedatives and some antidepressants. A pharmacist can check your prescriptions in a few minutes and does not need to know why you are asking.',
      'Health Canada advises against cannabis use during pregnancy and while breastfeeding, and people with a personal or family history of psychosis are at higher risk of harm. Frequent use in the teens and early twenties is linked to a higher risk too.',
      'For plain-language information, the Centre for Addiction and Mental Health publishes lower-risk cannabis use guidelines, and Health Canada’s consumer pages explain the rules and the labels without selling anything.',
    ],
  },
];

/** The article type, if the database does not have it yet; answers its id. */
async function cannabisTypeId(db: Knex): Promise<number> {
  const found = await db('article_types').where('slug', CANNABIS_TYPE.slug).first('id');
  if (found) return found.id;
  const max = await db('article_types').max({ p: 'position' }).first();
  const [row] = await db('article_types')
    .insert({ name: CANNABIS_TYPE.name, slug: CANNABIS_TYPE.slug, position: Number(max?.p ?? 0) + 1 })
    .returning('id');
  return typeof row === 'object' ? row.id : row;
}

export async function seedCannabisArticles(db: Knex, opts: { rng: Rng; now: Date; timeZone: string; images: ImagePool; slugs: SlugRegistry }): Promise<ArticleRef[]> {
  const typeId = await cannabisTypeId(db);
  const pool = opts.images.news ?? [];
  const drafts: ArticleDraft[] = CANNABIS_STORIES.map((story, i) => ({
    typeSlug: CANNABIS_TYPE.slug,
    name: story.name,
    excerpt: story.excerpt,
    // The first paragraph is the standfirst (the excerpt); the body opens with it as the other sections do.
    body: story.paragraphs.join('\n\n'),
    authorName: 'Staff',
    datePublished: new Date(opts.now.getTime() - story.daysAgo * 86_400_000 - i * 3_600_000),
    imageKey: pool.length ? opts.rng.pick(pool) : null,
    isFeatured: Boolean(story.featured),
  }));
  return insertArticles(db, drafts, new Map([[CANNABIS_TYPE.slug, typeId]]), opts.slugs, opts.timeZone);
}
