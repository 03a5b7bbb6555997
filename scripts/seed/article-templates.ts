// Headline and paragraph templates for generated articles. Slots in braces are filled with
// real Toronto names (neighbourhoods, stations, listings, library branches, City events) so
// the demo reads like a city site, not lorem ipsum. Every figure in them is made up and the
// stories are fiction; the seed says so on no page because it is demo data only.

export interface ArticleTemplates {
  headlines: string[];
  intros: string[];
  middles: string[];
}

export const AUTHORS = [
  'Maya Fernandes', 'Daniel Okafor', 'Priya Raman', 'Liam Tremblay', 'Jin Park', 'Sofia Rossi', 'Omar Haddad', 'Grace Nguyen',
  'Eli Cohen', 'Hana Sato', 'Marcus Reid', 'Ana Pereira', 'Tariq Khan', 'Chloe Gagnon', 'Wei Zhang', 'Nora Campbell',
];

export const TEMPLATES: Record<string, ArticleTemplates> = {
  news: {
    headlines: [
      'City council approves new bike lanes along {street} in {hood}',
      'TTC to close {station} station for weekend repairs',
      'Residents of {hood} push back on plan for {n}-storey tower',
      '{station} station is getting a long-awaited accessibility upgrade',
      'Toronto opens {n} new warming centres as temperatures drop',
      'Why {hood} just became one of the fastest-growing neighbourhoods in Toronto',
      'Water main break floods {street} near {station} station',
      'Toronto Public Library expands hours at the {library} branch',
      'Here is what is changing on the TTC this month',
      'New traffic signals coming to a busy {hood} intersection',
      'Toronto launches pilot to bring more public washrooms to {hood}',
      'The City wants your opinion on the future of {street}',
      'Shuttle buses replace subway service between {station} and {station2} this weekend',
      '{hood} gets a new park after years of community campaigning',
    ],
    intros: [
      'Residents of {hood} will notice some changes in the coming weeks after the City confirmed plans that have been debated at City Hall since last spring.',
      'Commuters who rely on {station} station should plan ahead: the TTC says the work will affect service for at least {n} days.',
      'It has been a long time coming for people who live and work around {street}, where the question has come up at nearly every community meeting in recent years.',
      'The announcement came on {weekday}, and reaction in {hood} was swift.',
    ],
    middles: [
      'According to the City, the project will cost roughly ${money} million and is expected to be finished by {season} {year}.',
      'Local councillors say the change responds to a petition signed by more than {n}00 residents of {hood} and nearby {hood2}.',
      'The nearest subway stop, {station}, sees thousands of riders a day, and many of them walk along {street} to get there.',
      '"We have been asking for this for years," one longtime resident told us. "It is good to finally see it happen."',
      'Not everyone is convinced. Some business owners near {place} worry about lost parking and fewer customers during construction.',
      'The City says it will post updates on its website and hold an open house at the {library} library branch before work begins.',
      'Census figures show {hood} is home to {pop} people, and the neighbourhood has grown steadily over the past decade.',
    ],
  },
  culture: {
    headlines: [
      'A new mural is transforming a laneway in {hood}',
      '{n} Toronto art exhibits you need to see this season',
      'This free concert series is coming back to {hood} this summer',
      'A beloved {hood} bookstore is celebrating {n} years in business',
      'Toronto artists are taking over an empty storefront near {station} station',
      'The {library} library branch is hosting an author series this fall',
      'Inside the tiny theatre company putting on shows in {hood}',
      'Everything you need to know about {event}',
      'A new gallery just opened steps from {station} station',
      'The best things to do in {hood} this weekend',
      'This Toronto photographer has been documenting {hood} for a decade',
      'Nuit Blanche-style art installations are popping up along {street}',
    ],
    intros: [
      'Toronto\'s arts scene has never been short of surprises, and this one is tucked away in {hood}.',
      'If you have walked along {street} lately, you may already have noticed something new.',
      'There is a lot happening across the city this season, but few things have people talking like this.',
      'For the people behind it, the project started with a simple idea and a small grant.',
    ],
    middles: [
      'The work draws on the history of {hood}, which has changed a great deal since the first houses went up along {street}.',
      'Admission is {price}, and organisers expect crowds on weekends, so arriving early is a good idea.',
      'It is a short walk from {station} station, and {place} around the corner is a good spot to grab a bite before or after.',
      'Artists from across the city contributed, including several who grew up in {hood2}.',
      'The organisers hope the event becomes an annual fixture on Toronto\'s cultural calendar.',
      'Earlier editions drew more than {n},000 visitors, and this year\'s programme is the largest yet.',
    ],
  },
  food: {
    headlines: [
      '{place} is the new {cuisine} spot everyone in {hood} is talking about',
      'This {hood} restaurant has been serving the same menu for {n} years',
      '{n} new restaurants that opened in Toronto this month',
      'A beloved {cuisine} restaurant is opening a second location near {station} station',
      'Where to eat near {station} station',
      'This is the best-kept secret for {cuisine} in {hood}',
      'Toronto\'s newest food hall is coming to {street}',
      '{place} is closing after {n} years in {hood}',
      'You can now get {cuisine} delivered late night in {hood}',
      'The line outside {place} says everything you need to know',
      'A taste of {hood}: where locals actually eat',
      'Toronto\'s Winterlicious and Summerlicious: what to book at {place}',
    ],
    intros: [
      'There is no shortage of places to eat in {hood}, but {place} has quickly become the one people mention first.',
      'Toronto\'s food scene moves fast, and this month has been busier than most.',
      'Regulars at {place} know the routine: arrive early, order the special, and do not skip dessert.',
      'Ask anyone who lives near {station} station where to eat and you will hear the same few names.',
    ],
    middles: [
      'The menu is short and focused, with most dishes under ${money}.',
      'The dining room seats about {n}0 people, and weekend evenings book up quickly.',
      '{place}, at {address}, sits a few minutes\' walk from {station} station.',
      'Nearby, {place2} is another favourite for a quick bite.',
      'The owners say they plan to add a patio next {season}, which should make the space even busier.',
      'It is the kind of place that makes {hood} worth the trip, even if you live across town in {hood2}.',
      'Vegetarian options are plentiful, and the kitchen is happy to adjust dishes on request.',
    ],
  },
  'real-estate': {
    headlines: [
      'Here is what ${money}00K gets you in {hood} right now',
      'A {n}-storey condo tower is planned near {station} station',
      'Rents in {hood} fell for the {nth} month in a row',
      'This {hood} house just sold for ${money} over asking',
      'Toronto home prices in {month}: what the numbers say',
      'The most affordable neighbourhoods to rent in Toronto right now',
      'A historic house in {hood} is on the market for the first time in {n} years',
      'Why buyers are looking at {hood} and {hood2}',
      'New rental building near {station} station offers {n}0 affordable units',
      'Toronto\'s laneway suites: a look inside one in {hood}',
    ],
    intros: [
      'The Toronto housing market has been hard to predict, but a few trends are clear in {hood}.',
      'If you are house-hunting near {station} station, competition is stiff.',
      'Developers have their eyes on {street}, and neighbours are paying attention.',
      'The latest numbers from the regional real estate board tell an interesting story.',
    ],
    middles: [
      'In {hood}, {renters}% of households rent, according to the 2021 Census.',
      'The median household income in the neighbourhood was ${income} in 2020.',
      'Homes within walking distance of {station} station tend to sell faster than the city average.',
      'The proposal calls for {n}00 units, a mix of one- and two-bedroom suites, and retail at street level.',
      'Agents say buyers are priced out of {hood2} and are looking a little further out.',
      'A community meeting about the plan will be held at the {library} library branch.',
    ],
  },
  sports: {
    headlines: [
      'Where to watch the game near {station} station',
      'Toronto FC fans are packing bars in {hood} this season',
      'A new public skating rink is opening in {hood}',
      'The Raptors are back: the best bars to catch the game in {hood}',
      'Toronto\'s {n} best outdoor basketball courts',
      'A community soccer league in {hood} is looking for players',
      'Blue Jays fever has taken over {street}',
      'Maple Leafs playoff watch parties are coming to {hood}',
      'Toronto Marathon road closures: what to know around {station} station',
      'This {hood} boxing gym has trained champions for {n} years',
    ],
    intros: [
      'Toronto is a sports town, and nowhere is that clearer than on game night in {hood}.',
      'Fans near {station} station have a new reason to celebrate.',
      'It started as a pickup game in {hood} and grew into something much bigger.',
      'Whether you follow the Leafs, the Raptors, the Jays or TFC, this is the season to get out and watch.',
    ],
    middles: [
      '{place} is a popular spot for fans, with big screens and a crowd that gets loud after the first goal.',
      'Organisers say more than {n}00 people signed up in the first week.',
      'The facility is a short walk from {station} station and free to use.',
      'Fans from {hood2} have been making the trip too.',
      'Road closures around {street} are expected on game days, so transit is the way to go.',
    ],
  },
  tech: {
    headlines: [
      'A Toronto startup just raised ${money} million to fix city parking',
      'Free public Wi-Fi is coming to {hood}',
      'This app tells you exactly when the next train arrives at {station}',
      'Toronto tech jobs: who is hiring this {season}',
      'A new coworking space opens steps from {station} station',
      'The {library} library branch now lends laptops and hotspots',
      'Toronto is testing delivery robots in {hood}',
      'How a team in {hood} built an app used by {n}0,000 Torontonians',
      'Presto card changes: what TTC riders need to know',
      'Toronto\'s AI scene is growing fast. Here is why',
    ],
    intros: [
      'Toronto\'s tech sector keeps growing, and some of its most interesting work is happening in {hood}.',
      'Riders at {station} station may soon see something new.',
      'The idea came from a frustration every Torontonian knows.',
      'A small team working out of {hood} thinks it has found the answer.',
    ],
    middles: [
      'The company employs about {n}0 people, most of them in Toronto.',
      'A pilot will run in {hood} and {hood2} before any wider launch.',
      'The City says it will review the results in {season} {year}.',
      'Critics have raised questions about privacy, and the company says data will be stored in Canada.',
      'The service is free, and it works on any phone with a browser.',
    ],
  },
  travel: {
    headlines: [
      '{n} day trips from Toronto you can take without a car',
      'The best weekend getaways from Toronto this {season}',
      'Toronto Island ferry: everything you need to know this {season}',
      'A staycation guide to {hood}',
      'How to spend a perfect day in {hood}',
      'These small Ontario towns are worth the drive from Toronto',
      'Union Station to Niagara: the easiest way to get there',
      'The prettiest walks in {hood} for a sunny afternoon',
      'A local\'s guide to {hood}: where to eat, shop and stroll',
      'Pearson travel tips for the holiday rush',
    ],
    intros: [
      'You do not need to go far to feel like you are on holiday.',
      'Toronto has plenty of places that feel like another city, and {hood} is one of them.',
      'When the weather turns, Torontonians start planning their escapes.',
      'For a quick break from the city, this is a good place to start.',
    ],
    middles: [
      'Start at {station} station and walk south along {street}.',
      'Stop at {place} for lunch; it is a local favourite.',
      'If you have time, continue on to {hood2}, which is just a short streetcar ride away.',
      'Pack layers: Toronto weather can change quickly in the {season}.',
      'The whole trip can be done in a day for under ${money}0 per person.',
    ],
  },
};

export const GENERIC_CLOSERS = [
  'We will update this story as more information becomes available.',
  'Have a tip or a story from your neighbourhood? Let us know.',
  'Sign up for our newsletter to get stories like this every morning.',
  'What do you think? Tell us on social media.',
  'Is there a place we missed? Tell us about it.',
];

export const SEASONS = ['spring', 'summer', 'fall', 'winter'];
export const ORDINALS = ['second', 'third', 'fourth', 'fifth', 'sixth'];
