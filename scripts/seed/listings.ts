import type { Knex } from 'knex';
import moment from 'moment-timezone';
import { slugify } from '../../shared/format/text';
import { readEstablishments, type EstablishmentRow } from './data-files';
import { insertBatches, insertReturningIds, SlugRegistry } from './batch';
import { classifyEstablishment, kindPhrase, LISTING_TYPES } from './listing-taxonomy';
import { titleCaseAddress, titleCaseName } from './text-case';
import { isChain } from './chains';
import type { Rng } from './random';
import { hoursColumns, WEEKDAYS, type PlaceHours, type Weekday } from '../../shared/place-hours';
import type { NeighbourhoodRef } from './neighbourhoods';
import type { StationRef } from './stations';

// Every DineSafe establishment becomes a listing with its real name, address, coordinates,
// neighbourhood and nearest station. What DineSafe does not know (phone, hours, features,
// a description) is generated, deterministically per establishment id: the random stream of
// a listing depends only on its DineSafe id, so importing the first N rows gives exactly the
// rows a full import gives for them.

export const FEATURES = [
  { slug: 'patio', name: 'Patio' },
  { slug: 'wheelchair-accessible', name: 'Wheelchair accessible' },
  { slug: 'vegetarian-options', name: 'Vegetarian options' },
  { slug: 'vegan-options', name: 'Vegan options' },
  { slug: 'gluten-free-options', name: 'Gluten-free options' },
  { slug: 'late-night', name: 'Late night' },
  { slug: 'wi-fi', name: 'Wi-Fi' },
  { slug: 'licensed', name: 'Licensed' },
  { slug: 'family-friendly', name: 'Family friendly' },
  { slug: 'dog-friendly', name: 'Dog friendly' },
  { slug: 'live-music', name: 'Live music' },
  { slug: 'halal', name: 'Halal' },
] as const;

export const SERVICES = [
  { slug: 'take-out', name: 'Take-out' },
  { slug: 'delivery', name: 'Delivery' },
  { slug: 'catering', name: 'Catering' },
  { slug: 'reservations', name: 'Reservations' },
  { slug: 'online-ordering', name: 'Online ordering' },
  { slug: 'private-events', name: 'Private events' },
] as const;

type FeatureSlug = (typeof FEATURES)[number]['slug'];
type ServiceSlug = (typeof SERVICES)[number]['slug'];

// How likely each feature or service is for each listing type (the rest default to 0).
const FEATURE_ODDS: Record<string, Partial<Record<FeatureSlug | ServiceSlug, number>>> = {
  restaurants: { patio: 0.3, 'wheelchair-accessible': 0.45, 'vegetarian-options': 0.55, 'vegan-options': 0.25, 'gluten-free-options': 0.25, 'late-night': 0.1, 'wi-fi': 0.3, licensed: 0.55, 'family-friendly': 0.45, 'live-music': 0.04, 'take-out': 0.75, delivery: 0.55, catering: 0.25, reservations: 0.45, 'online-ordering': 0.4, 'private-events': 0.15 },
  bars: { patio: 0.45, 'wheelchair-accessible': 0.35, 'vegetarian-options': 0.3, 'late-night': 0.6, 'wi-fi': 0.35, licensed: 0.98, 'dog-friendly': 0.12, 'live-music': 0.25, reservations: 0.35, 'private-events': 0.35, 'take-out': 0.15 },
  cafes: { patio: 0.25, 'wheelchair-accessible': 0.5, 'vegetarian-options': 0.6, 'vegan-options': 0.4, 'gluten-free-options': 0.3, 'wi-fi': 0.75, 'family-friendly': 0.4, 'dog-friendly': 0.2, 'take-out': 0.95, delivery: 0.3, 'online-ordering': 0.35, catering: 0.1 },
  bakeries: { 'wheelchair-accessible': 0.4, 'vegetarian-options': 0.5, 'vegan-options': 0.2, 'gluten-free-options': 0.3, 'family-friendly': 0.5, 'take-out': 0.98, delivery: 0.25, catering: 0.35, 'online-ordering': 0.3 },
  'take-out': { 'wheelchair-accessible': 0.3, 'vegetarian-options': 0.45, 'vegan-options': 0.15, 'late-night': 0.2, 'family-friendly': 0.3, 'take-out': 1, delivery: 0.7, catering: 0.15, 'online-ordering': 0.6 },
  'food-shops': { 'wheelchair-accessible': 0.5, 'late-night': 0.15, delivery: 0.2, 'online-ordering': 0.15 },
};
const HALAL_SUBTYPES = new Set(['middle-eastern', 'indian', 'butchers', 'chicken-wings']);

// Weekly patterns by type (place-hours.ts' shape): split lunch and dinner shifts, bars and
// take-out past midnight, one shop open round the clock, varied holiday habits. Each list keeps
// the length it had when hours were one range a day, so a place's other random draws (image,
// phone…) come out as before.
type DemoHours = { days: Partial<Record<Weekday, Array<[string, string]>>>; holidays: PlaceHours['holidays']; holidayRanges?: Array<[string, string]> };
const every = (ranges: Array<[string, string]>, except: Weekday[] = []): DemoHours['days'] =>
  Object.fromEntries(WEEKDAYS.filter((d) => !except.includes(d)).map((d) => [d, ranges]));
const HOURS: Record<string, DemoHours[]> = {
  restaurants: [
    { days: every([['11:30', '14:30'], ['17:00', '22:00']], ['mon']), holidays: 'closed' },
    { days: { ...every([['17:00', '23:00']], ['sun', 'mon', 'fri', 'sat']), fri: [['17:00', '00:30']], sat: [['17:00', '00:30']] }, holidays: 'usual' },
    { days: every([['11:00', '21:30']]), holidays: 'hours', holidayRanges: [['12:00', '20:00']] },
    { days: every([['08:00', '15:00']]), holidays: 'closed' },
  ],
  bars: [
    { days: every([['16:00', '02:00']]), holidays: 'usual' },
    { days: { ...every([['17:00', '01:00']], ['mon', 'fri', 'sat', 'sun']), fri: [['17:00', '02:00']], sat: [['12:00', '02:00']], sun: [['12:00', '23:00']] }, holidays: 'usual' },
    { days: every([['12:00', '02:00']]), holidays: 'hours', holidayRanges: [['16:00', '02:00']] },
  ],
  cafes: [
    { days: { ...every([['07:00', '18:00']], ['sat', 'sun']), sat: [['08:00', '17:00']], sun: [['09:00', '16:00']] }, holidays: 'hours', holidayRanges: [['09:00', '15:00']] },
    { days: every([['08:00', '17:00']]), holidays: 'closed' },
    { days: every([['07:30', '20:00']]), holidays: 'usual' },
  ],
  bakeries: [
    { days: every([['07:00', '18:00']], ['mon']), holidays: 'closed' },
    { days: every([['08:00', '16:00']]), holidays: 'usual' },
  ],
  'take-out': [
    { days: every([['11:00', '23:00']]), holidays: 'usual' },
    { days: { ...every([['11:00', '01:00']], ['fri', 'sat']), fri: [['11:00', '03:00']], sat: [['11:00', '03:00']] }, holidays: 'usual' },
    { days: every([['10:30', '21:00']]), holidays: 'closed' },
  ],
  'food-shops': [
    { days: every([['08:00', '22:00']]), holidays: 'hours', holidayRanges: [['10:00', '18:00']] },
    { days: every([['00:00', '24:00']]), holidays: 'usual' },
    { days: every([['09:00', '21:00']]), holidays: 'closed' },
  ],
};

const DESCRIPTION_LINES: Record<string, string[]> = {
  restaurants: ['A neighbourhood spot with a loyal lunch crowd.', 'Expect a short menu done well and friendly service.', 'Regulars swear by the daily specials.', 'Good for a casual dinner with friends.', 'Portions are generous and prices fair.', 'The dining room fills up fast on weekends.'],
  bars: ['A reliable place for a pint after work.', 'The bartenders know their way around a classic cocktail.', 'It gets loud and lively after 10 pm.', 'A good pick for catching the game.', 'Low lights, a long bar and a decent playlist.'],
  cafes: ['A quiet place to work through the afternoon.', 'The espresso is pulled with care.', 'Pastries come in fresh every morning.', 'Expect a line at the morning rush.', 'A cozy room with a handful of tables.'],
  bakeries: ['Bread comes out of the oven early; go before noon.', 'The pastry case changes with the seasons.', 'Cakes to order for birthdays and holidays.', 'Known around the block for its croissants.'],
  'take-out': ['Built for grabbing a bite on the go.', 'Orders come out fast, even at the lunch rush.', 'A late-night favourite around here.', 'Call ahead and it is ready when you arrive.'],
  'food-shops': ['Handy for groceries and everyday essentials.', 'Stocks the basics and a few hard-to-find items.', 'Open long hours for last-minute shopping.', 'Friendly staff who know their regulars.'],
};

export interface TaxonomyIds {
  typeIds: Map<string, number>;
  /** key `${typeSlug}/${subTypeSlug}` */
  subTypeIds: Map<string, number>;
  subTypeNames: Map<string, string>;
  featureIds: Map<string, number>;
  serviceIds: Map<string, number>;
}

export async function seedListingTaxonomy(db: Knex): Promise<TaxonomyIds> {
  const typeIds = new Map<string, number>();
  const subTypeIds = new Map<string, number>();
  const subTypeNames = new Map<string, string>();
  const ids = await insertReturningIds(db, 'listing_types', LISTING_TYPES.map((t, i) => ({ name: t.name, slug: t.slug, position: i })));
  LISTING_TYPES.forEach((t, i) => typeIds.set(t.slug, ids[i]));
  const subRows = LISTING_TYPES.flatMap((t) => t.subTypes.map((s, i) => ({ type_id: typeIds.get(t.slug)!, name: s.name, slug: s.slug, position: i, key: `${t.slug}/${s.slug}` })));
  const subIds = await insertReturningIds(db, 'listing_sub_types', subRows.map(({ key: _key, ...r }) => r));
  subRows.forEach((r, i) => {
    subTypeIds.set(r.key, subIds[i]);
    subTypeNames.set(r.key, r.name);
  });
  const featureIdList = await insertReturningIds(db, 'features', FEATURES.map((f) => ({ ...f })));
  const serviceIdList = await insertReturningIds(db, 'services', SERVICES.map((s) => ({ ...s })));
  return {
    typeIds,
    subTypeIds,
    subTypeNames,
    featureIds: new Map(FEATURES.map((f, i) => [f.slug, featureIdList[i]])),
    serviceIds: new Map(SERVICES.map((s, i) => [s.slug, serviceIdList[i]])),
  };
}

export interface ListingRef {
  id: number;
  name: string;
  slug: string;
  type: string;
  subType: string | null;
  neighbourhoodId: number | null;
  latitude: number;
  longitude: number;
  features: Set<string>;
  address: string;
  /** Registered at three or more addresses (chains.ts): never on a Best of list. */
  chain: boolean;
}

/** A fictional phone number: 555-01xx is reserved for fiction in the North American plan. */
function demoPhone(rng: Rng): string {
  return `${rng.pick(['416', '647', '437'])}-555-01${String(rng.int(0, 99)).padStart(2, '0')}`;
}

function demoHours(rng: Rng, type: string): PlaceHours {
  const h = rng.pick(HOURS[type] ?? HOURS.restaurants);
  const ranges = (list: Array<[string, string]>) => list.map(([opens, closes]) => ({ opens, closes }));
  // Days the place is closed are simply absent.
  const weekly = Object.fromEntries(Object.entries(h.days).map(([d, list]) => [d, ranges(list!)]));
  return { weekly, holidays: h.holidays, ...(h.holidayRanges ? { holidayRanges: ranges(h.holidayRanges) } : {}) };
}

function describe(rng: Rng, name: string, kind: string, neighbourhood: string | undefined, station: string | undefined, distance: number | null, type: string): string {
  const where = neighbourhood ? ` in ${neighbourhood}` : '';
  const near = station && distance != null ? (distance < 1000 ? `, ${Math.round(distance / 10) * 10} m from ${station} station` : `, ${(distance / 1000).toFixed(1)} km from ${station} station`) : '';
  const lines = rng.sample(DESCRIPTION_LINES[type] ?? DESCRIPTION_LINES.restaurants, 2);
  return `${name} is ${kind}${where}${near}. ${lines.join(' ')}`;
}

export interface SeedListingsOptions {
  rng: Rng;
  now: Date;
  timeZone: string;
  taxonomy: TaxonomyIds;
  neighbourhoods: NeighbourhoodRef[];
  stations: StationRef[];
  /** Import only the first N establishments of the file (tests). */
  limit?: number;
  /** Storage keys of placeholder images by theme; some listings get one. */
  images?: Record<string, string[]>;
}

export async function seedListings(db: Knex, opts: SeedListingsOptions): Promise<ListingRef[]> {
  const { taxonomy, rng } = opts;
  const establishments: EstablishmentRow[] = readEstablishments().slice(0, opts.limit ?? undefined);
  const stationBySlug = new Map(opts.stations.map((s) => [s.slug, s]));
  const neighbourhoodById = new Map(opts.neighbourhoods.map((n) => [n.id, n]));
  const slugs = new SlugRegistry();
  const now = moment(opts.now);
  const refs: Omit<ListingRef, 'id'>[] = [];
  const joins: Array<{ features: string[]; services: string[] }> = [];
  // One place temporarily closed (the file's first restaurant with hours), from two days ago
  // for two weeks, so the page's "Temporarily closed" line and JSON-LD closure have a real case.
  let closureGiven = false;
  const withDemoClosure = (hours: PlaceHours | null, type: string): PlaceHours | null => {
    if (!hours || closureGiven || type !== 'restaurants') return hours;
    closureGiven = true;
    const today = moment.tz(opts.now, opts.timeZone).startOf('day');
    return { ...hours, closure: { from: today.clone().subtract(2, 'days').format('YYYY-MM-DD'), until: today.clone().add(12, 'days').format('YYYY-MM-DD'), note: 'Closed for renovations' } };
  };
  const rows = establishments.map((e) => {
    const r = rng.fork(`listing:${e.establishment_id}`);
    const { type, subType } = classifyEstablishment(e);
    const typeId = taxonomy.typeIds.get(type)!;
    const subTypeKey = subType ? `${type}/${subType}` : null;
    const name = titleCaseName(e.name).slice(0, 255);
    const neighbourhood = e.neighbourhood_id != null ? neighbourhoodById.get(e.neighbourhood_id) : undefined;
    const station = stationBySlug.get(e.nearest_station_id);
    const slug = slugs.take(slugify(name), neighbourhood?.slug);
    const odds = FEATURE_ODDS[type] ?? {};
    const features = FEATURES.map((f) => f.slug).filter((f) => r.chance(f === 'halal' && subType && HALAL_SUBTYPES.has(subType) ? 0.55 : (odds[f] ?? 0)));
    const services = SERVICES.map((s) => s.slug).filter((s) => r.chance(odds[s] ?? 0));
    const kind = kindPhrase(type, subType);
    // Listed since 2008 at the earliest, with more recent additions more likely.
    const published = now.clone().subtract(Math.floor(Math.pow(r.float(), 1.6) * 18 * 365), 'days').subtract(r.int(0, 86_399), 'seconds');
    const imageThemes = opts.images?.[type] ?? opts.images?.restaurants;
    refs.push({ name, slug, type, subType, neighbourhoodId: e.neighbourhood_id, latitude: e.latitude, longitude: e.longitude, features: new Set(features), address: titleCaseAddress(e.address), chain: isChain(e.name) });
    joins.push({ features, services });
    return {
      name,
      slug,
      type_id: typeId,
      sub_type_id: subTypeKey ? taxonomy.subTypeIds.get(subTypeKey)! : null,
      neighbourhood_id: e.neighbourhood_id,
      nearest_subway_stop_id: station?.id ?? null,
      nearest_subway_stop_distance_m: e.nearest_station_distance_m,
      address: titleCaseAddress(e.address).slice(0, 255),
      phone: type !== 'food-shops' || r.chance(0.3) ? (r.chance(0.7) ? demoPhone(r) : '') : '',
      latitude: e.latitude,
      longitude: e.longitude,
      description: describe(r, name, kind, neighbourhood?.name, station?.name, e.nearest_station_distance_m, type),
      ...hoursColumns(withDemoClosure(type === 'food-shops' ? (r.chance(0.3) ? demoHours(r, type) : null) : r.chance(0.6) ? demoHours(r, type) : null, type)),
      image_key: imageThemes?.length && r.chance(type === 'food-shops' ? 0.03 : 0.15) ? r.pick(imageThemes) : null,
      dinesafe_establishment_id: e.establishment_id,
      date_published: published.toDate(),
      date_created: published.toDate(),
      // As seeded, a place last changed when it was published (the desk's "changed recently"
      // reads it; the database's default, now, would make two seeds differ).
      date_modified: published.toDate(),
    };
  });
  const ids = await insertReturningIds(db, 'listings', rows, 1000);
  const featureRows: Array<{ listing_id: number; feature_id: number }> = [];
  const serviceRows: Array<{ listing_id: number; service_id: number }> = [];
  joins.forEach((j, i) => {
    for (const f of j.features) featureRows.push({ listing_id: ids[i], feature_id: taxonomy.featureIds.get(f)! });
    for (const s of j.services) serviceRows.push({ listing_id: ids[i], service_id: taxonomy.serviceIds.get(s)! });
  });
  await insertBatches(db, 'listing_features', featureRows, 5000);
  await insertBatches(db, 'listing_services', serviceRows, 5000);
  return refs.map((r, i) => ({ ...r, id: ids[i] }));
}
