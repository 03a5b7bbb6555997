import type { EstablishmentRow } from './data-files';

// DineSafe says what a premises is licensed as (restaurant, take-out, bar, bakery, grocer...),
// not what it serves. The guide's types follow the licence, moved where the name says plainly
// what a reader would look for (a "restaurant" licence called "... Coffee" is a cafe, one
// called "... Pub" is a bar). Restaurant and take-out sub-types are the cuisine or dish the
// name announces ("Pizza", "Sushi", "Pho"); a name that announces none gets no sub-type rather
// than a made-up one.

export interface SubTypeDef {
  slug: string;
  name: string;
  /** Matches the upper-cased establishment name. */
  match?: RegExp;
}

export interface TypeDef {
  slug: string;
  name: string;
  subTypes: SubTypeDef[];
}

const w = (words: string) => new RegExp(`\\b(${words})\\b`);

// Order matters: the first match wins ("Sushi & Pizza" is sushi).
const CUISINES: SubTypeDef[] = [
  { slug: 'sushi-japanese', name: 'Sushi & Japanese', match: w('SUSHI|JAPANESE|IZAKAYA|BENTO|TEPPAN|TEPPANYAKI|YAKITORI|DONBURI|KATSU|TONKATSU|UDON|ONIGIRI|OMAKASE') },
  { slug: 'ramen-noodles', name: 'Ramen & Noodles', match: w('RAMEN|RAMYUN|NOODLES?|UDON|LAMIAN|LA MIAN') },
  { slug: 'vietnamese', name: 'Vietnamese', match: w('PHO|VIETNAMESE|BANH MI|SAIGON|HANOI|BUN BO') },
  { slug: 'thai', name: 'Thai', match: w('THAI|PAD THAI|BANGKOK|SIAM') },
  { slug: 'korean', name: 'Korean', match: w('KOREAN|BIBIMBAP|BULGOGI|SEOUL|K-?BBQ|GAMJATANG|TTEOK') },
  { slug: 'chinese', name: 'Chinese', match: w('CHINESE|HAKKA|SZECHUAN|SICHUAN|DIM SUM|DUMPLINGS?|WONTON|HUNAN|CANTONESE|SHANGHAI|BEIJING|HOT ?POT|XINJIANG|YUNNAN|TAIWANESE|CONGEE|BAO') },
  { slug: 'indian', name: 'Indian & South Asian', match: w('INDIAN|INDIA|TANDOORI?|BIRYANI|CURRY|MASALA|DOSA|PUNJABI|DESI|SWEETS|PAKISTANI|BANGLADESHI|SRI LANKAN|NEPALI|MOMOS?|KATHI|DHABA|TIFFIN|THALI') },
  { slug: 'middle-eastern', name: 'Middle Eastern', match: w('SHAWARMA|KEBABS?|KABOBS?|FALAFEL|DONER|LEBANESE|PERSIAN|TURKISH|AFGHAN|SYRIAN|MANAKEESH|OSMOW\'?S|ARABIC|HALAL') },
  { slug: 'greek-mediterranean', name: 'Greek & Mediterranean', match: w('GREEK|SOUVLAKI|GYROS?|MEDITERRANEAN|PITA') },
  { slug: 'caribbean', name: 'Caribbean', match: w('CARIBBEAN|JERK|ROTI|JAMAICAN|TRINI|ISLAND|PATTIES|PATTY') },
  { slug: 'ethiopian-african', name: 'Ethiopian & African', match: w('ETHIOPIAN|ERITREAN|AFRICAN|NIGERIAN|GHANAIAN|SOMALI|INJERA') },
  { slug: 'mexican-latin', name: 'Mexican & Latin American', match: w('MEXICAN|TACOS?|TAQUERIA|BURRITOS?|CANTINA|SALVADORENO|PUPUSAS?|PERUVIAN|COLOMBIAN|BRAZILIAN|LATIN|ARGENTINIAN|EMPANADAS?|MEXICANA') },
  { slug: 'italian', name: 'Italian', match: w('ITALIAN|TRATTORIA|RISTORANTE|OSTERIA|PASTA|CUCINA|ENOTECA') },
  { slug: 'pizza', name: 'Pizza', match: w('PIZZA|PIZZERIA|PIZZAIOLO|PIZZAS|PIZZE') },
  { slug: 'burgers', name: 'Burgers', match: w('BURGERS?|MCDONALD\'?S|WENDY\'?S|HARVEY\'?S|A&W|FIVE GUYS|HOT DOGS?') },
  { slug: 'chicken-wings', name: 'Chicken & Wings', match: w('CHICKEN|WINGS?|KFC|POPEYES|NASHVILLE|MARY BROWN\'?S|PERI ?PERI|SWISS CHALET') },
  { slug: 'bbq-smokehouse', name: 'BBQ & Smokehouse', match: w('BBQ|BARBECUE|SMOKEHOUSE|SMOKE ?HOUSE|BRISKET') },
  { slug: 'seafood', name: 'Seafood', match: w('SEAFOOD|FISH|OYSTERS?|LOBSTER|CRAB|POKE') },
  { slug: 'sandwiches-delis', name: 'Sandwiches & Delis', match: w('SUBWAY|SANDWICH(ES)?|DELI|SUBS|PANINI|BAGELS?|JIMMY THE GREEK|MR\\.? SUB|QUIZNOS') },
  { slug: 'breakfast-brunch', name: 'Breakfast & Brunch', match: w('BRUNCH|BREAKFAST|DINER|PANCAKES?|EGGS?|WAFFLES?') },
  { slug: 'vegetarian-vegan', name: 'Vegetarian & Vegan', match: w('VEGAN|VEGETARIAN|PLANT|SALADS?|FRESHII|SALAD') },
];

const BAR_KINDS: SubTypeDef[] = [
  { slug: 'pubs', name: 'Pubs', match: w('PUB|TAVERN|ALEHOUSE|ALE HOUSE|IRISH|ARMS|FIRKIN|INN') },
  { slug: 'sports-bars', name: 'Sports Bars', match: w('SPORTS|WINGS|GAME|BILLIARDS?|POOL HALL') },
  { slug: 'wine-bars', name: 'Wine Bars', match: w('WINE|VINO|ENOTECA') },
  { slug: 'breweries', name: 'Breweries & Beer Halls', match: w('BREWERY|BREWING|BREWPUB|BEER|BIER|BEERS') },
  { slug: 'cocktail-bars', name: 'Cocktail Bars', match: w('COCKTAILS?|SPEAKEASY|MEZCAL|TIKI|GIN') },
  { slug: 'lounges-clubs', name: 'Lounges & Clubs', match: w('LOUNGE|CLUB|NIGHTCLUB|HOOKAH|SHISHA|KARAOKE|KTV') },
];

const CAFE_KINDS: SubTypeDef[] = [
  { slug: 'bubble-tea', name: 'Bubble Tea & Tea', match: w('TEA|BOBA|BUBBLE|CHATIME|COCO|MACHI|GONG CHA|SHARETEA|PRESOTEA|CHA') },
  { slug: 'juice-smoothies', name: 'Juice & Smoothies', match: w('JUICE|JUICERY|SMOOTHIES?|BOOSTER|PRESSED|ACAI') },
  { slug: 'coffee', name: 'Coffee Shops', match: /./ },
];

const BAKERY_KINDS: SubTypeDef[] = [
  { slug: 'ice-cream', name: 'Ice Cream & Frozen Yogurt' },
  { slug: 'cakes-pastry', name: 'Cakes & Pastry', match: w('CAKES?|PATISSERIE|PASTRY|PASTRIES|DESSERTS?|CHOCOLATES?|MACARONS?|CUPCAKES?|DONUTS?|DOUGHNUTS?|TARTS?|CREPES?|SWEETS?|CHURROS?') },
  { slug: 'bakeries', name: 'Bread & Bakeries' },
];

const SHOP_KINDS: SubTypeDef[] = [
  { slug: 'supermarkets', name: 'Supermarkets' },
  { slug: 'convenience', name: 'Convenience Stores' },
  { slug: 'butchers', name: 'Butchers' },
  { slug: 'fishmongers', name: 'Fishmongers' },
];

const TAKEOUT_EXTRA: SubTypeDef[] = [
  { slug: 'food-courts', name: 'Food Court Counters' },
  { slug: 'snack-stands', name: 'Snack Stands' },
];

export const LISTING_TYPES: TypeDef[] = [
  { slug: 'restaurants', name: 'Restaurants', subTypes: [...CUISINES, { slug: 'cafeterias', name: 'Cafeterias' }] },
  { slug: 'bars', name: 'Bars', subTypes: BAR_KINDS },
  { slug: 'cafes', name: 'Cafes', subTypes: CAFE_KINDS },
  { slug: 'bakeries', name: 'Bakeries', subTypes: BAKERY_KINDS },
  { slug: 'take-out', name: 'Take-out', subTypes: [...CUISINES, ...TAKEOUT_EXTRA] },
  { slug: 'food-shops', name: 'Grocers & Food Shops', subTypes: SHOP_KINDS },
];

const CAFE_NAME = w('CAFE|CAFÉ|COFFEE|ESPRESSO|STARBUCKS|TIM HORTONS|SECOND CUP|BALZAC\'?S|PILOT|TEA|TEAS|BOBA|BUBBLE TEA|CHATIME|GONG CHA|SHARETEA|JUICE|JUICERY|BOOSTER JUICE|ROASTERS?|BARISTA|LATTE');
const BAR_NAME = w('PUB|TAVERN|BREWERY|BREWING|BREWPUB|ALEHOUSE|BEER HALL|WINE BAR|COCKTAIL BAR|COCKTAILS|SPEAKEASY|NIGHTCLUB|LOUNGE');
// Food-first places with "Bar" in their name stay restaurants ("Sushi Bar", "Salad Bar").
const FOOD_FIRST = w('SUSHI|SALAD|OYSTER|NOODLE|RAMEN|KITCHEN|GRILL|PIZZA|BURGER|JUICE|RESTAURANT');

export interface Classification {
  type: string;
  subType: string | null;
}

function firstMatch(kinds: SubTypeDef[], upperName: string): string | null {
  return kinds.find((k) => k.match?.test(upperName))?.slug ?? null;
}

export function classifyEstablishment(row: Pick<EstablishmentRow, 'name' | 'category' | 'dinesafe_type'>): Classification {
  const name = row.name.toUpperCase();
  switch (row.category) {
    case 'bar':
      return { type: 'bars', subType: firstMatch(BAR_KINDS, name) ?? 'cocktail-bars' };
    case 'bakery':
      return { type: 'bakeries', subType: firstMatch(BAKERY_KINDS, name) ?? 'bakeries' };
    case 'dessert':
      return { type: 'bakeries', subType: 'ice-cream' };
    case 'grocery':
      return { type: 'food-shops', subType: 'supermarkets' };
    case 'convenience':
      return { type: 'food-shops', subType: 'convenience' };
    case 'specialty_food_shop':
      return { type: 'food-shops', subType: row.dinesafe_type === 'Fish Shop' ? 'fishmongers' : 'butchers' };
    case 'refreshment_stand':
      return { type: 'take-out', subType: firstMatch(CUISINES, name) ?? 'snack-stands' };
    case 'food_court':
      return { type: 'take-out', subType: firstMatch(CUISINES, name) ?? 'food-courts' };
    case 'cafeteria':
      return { type: 'restaurants', subType: 'cafeterias' };
    case 'restaurant':
    case 'takeout':
    default: {
      if (CAFE_NAME.test(name) && !/\b(RESTAURANT|KITCHEN|GRILL)\b/.test(name)) return { type: 'cafes', subType: firstMatch(CAFE_KINDS, name) };
      if (row.category === 'restaurant' && (BAR_NAME.test(name) || (/\bBAR\b/.test(name) && !FOOD_FIRST.test(name)))) {
        return { type: 'bars', subType: firstMatch(BAR_KINDS, name) ?? 'cocktail-bars' };
      }
      return { type: row.category === 'takeout' ? 'take-out' : 'restaurants', subType: firstMatch(CUISINES, name) };
    }
  }
}

// How a description names a listing's kind: "a ramen and noodle restaurant", "a pub".
const CUISINE_ADJECTIVES: Record<string, string> = {
  'sushi-japanese': 'sushi and Japanese', 'ramen-noodles': 'ramen and noodle', 'indian': 'Indian and South Asian', 'middle-eastern': 'Middle Eastern',
  'greek-mediterranean': 'Greek and Mediterranean', 'ethiopian-african': 'Ethiopian and African', 'mexican-latin': 'Mexican and Latin American',
  burgers: 'burger', 'chicken-wings': 'chicken and wings', 'bbq-smokehouse': 'barbecue', 'breakfast-brunch': 'breakfast and brunch',
  'sandwiches-delis': 'sandwich and deli', 'vegetarian-vegan': 'vegetarian and vegan', pizza: 'pizza', seafood: 'seafood',
};
const KIND_NOUNS: Record<string, string> = {
  'restaurants/cafeterias': 'cafeteria', 'take-out/food-courts': 'food court counter', 'take-out/snack-stands': 'snack stand',
  'bars/pubs': 'pub', 'bars/sports-bars': 'sports bar', 'bars/wine-bars': 'wine bar', 'bars/breweries': 'brewery', 'bars/cocktail-bars': 'cocktail bar', 'bars/lounges-clubs': 'lounge',
  'cafes/coffee': 'coffee shop', 'cafes/bubble-tea': 'tea and bubble tea shop', 'cafes/juice-smoothies': 'juice bar',
  'bakeries/bakeries': 'bakery', 'bakeries/cakes-pastry': 'cake and pastry shop', 'bakeries/ice-cream': 'ice cream shop',
  'food-shops/supermarkets': 'supermarket', 'food-shops/convenience': 'convenience store', 'food-shops/butchers': 'butcher shop', 'food-shops/fishmongers': 'fish shop',
};
const TYPE_NOUNS: Record<string, string> = { restaurants: 'restaurant', bars: 'bar', cafes: 'cafe', bakeries: 'bakery', 'take-out': 'take-out spot', 'food-shops': 'food shop' };

/** "a Thai restaurant", "an ice cream shop", "a take-out spot". */
export function kindPhrase(type: string, subType: string | null): string {
  let noun = (subType && KIND_NOUNS[`${type}/${subType}`]) ?? TYPE_NOUNS[type] ?? 'place';
  if (subType && !KIND_NOUNS[`${type}/${subType}`]) {
    const adjective = CUISINE_ADJECTIVES[subType] ?? LISTING_TYPES.find((t) => t.slug === type)?.subTypes.find((s) => s.slug === subType)?.name ?? '';
    noun = `${adjective} ${type === 'take-out' ? 'take-out spot' : 'restaurant'}`.trim();
  }
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
