import { normaliseStationName, normaliseWords, parseAddress } from './normalise';

// The forms people type and the forms DineSafe registers must meet on one street key. The map's
// streets (scripts/map-streets) are built with the same parser, so both read a number alike.

describe('parseAddress', () => {
  test.each([
    ['401 Bay Street', 401, '401', 'bay st'],
    ['401 bay st', 401, '401', 'bay st'],
    ['401 BAY ST', 401, '401', 'bay st'],
    ['401 Bay St.', 401, '401', 'bay st'],
    ['317 Dundas St. W.', 317, '317', 'dundas st w'],
    ['317 Dundas Street West', 317, '317', 'dundas st w'],
    ['317 DUNDAS ST W', 317, '317', 'dundas st w'],
    ['1 Blue Jays Way, Toronto', 1, '1', 'blue jays way'],
    ['1 Blue Jays Way Toronto ON', 1, '1', 'blue jays way'],
    ['1 Blue Jays Way, Toronto, ON M5V 1J1', 1, '1', 'blue jays way'],
    ['1 Blue Jays Way M5V1J1', 1, '1', 'blue jays way'],
    ['65 FRONT ST W, Unit-442', 65, '65', 'front st w'],
    ['65 Front St W Unit 442', 65, '65', 'front st w'],
    ['65 Front St W #5', 65, '65', 'front st w'],
    ['65 Front St W, Suite 200', 65, '65', 'front st w'],
    ['Unit 5, 65 Front St W', 65, '65', 'front st w'],
    ['5-65 Front St W', 65, '65', 'front st w'],
    ['2190 MCNICOLL AVE, -109', 2190, '2190', 'mcnicoll ave'],
    ['3276 MIDLAND AVE - C126', 3276, '3276', 'midland ave'],
    ['775 THE QUEENSWAY, Bldg--', 775, '775', 'queensway'],
    ['775 Queensway', 775, '775', 'queensway'],
    ['1871 O\'CONNOR DR', 1871, '1871', 'oconnor dr'],
    ['1871 OConnor Drive', 1871, '1871', 'oconnor dr'],
    ['19C FINCH AVE W', 19, '19c', 'finch ave w'],
    ['41-43 Queen St E', 41, '41', 'queen st e'],
    ['144-146 FRONT ST W', 144, '144', 'front st w'],
    ['7-11 ARLETA AVE', 7, '7', 'arleta ave'],
    ['2867A-2869 DUNDAS ST W', 2867, '2867a', 'dundas st w'],
    // A unit before the number, not a range 15 lots wide.
    ['10-40 Queen St', 40, '40', 'queen st'],
    ['10 - 40 Queen Street', 40, '40', 'queen st'],
    ['650 1/2 QUEEN ST W', 650.5, '650 1/2', 'queen st w'],
    ['993.5 BLOOR ST W', 993.5, '993.5', 'bloor st w'],
    ['1 Saint Clair Avenue East Suite 200', 1, '1', 'st clair ave e'],
    ['10 The East Mall', 10, '10', 'e mall'],
    ['1 Main St East York', 1, '1', 'main st'],
    ['1652 Saint Clair Avenue West', 1652, '1652', 'st clair ave w'],
    ['1652 ST. CLAIR AVE. W.', 1652, '1652', 'st clair ave w'],
    ['2 Bloor Blvd', 2, '2', 'bloor blvd'],
    ['2 Bloor Boulevard', 2, '2', 'bloor blvd'],
    ['10 Lesmill Road', 10, '10', 'lesmill rd'],
    ['15 Toronto St', 15, '15', 'toronto st'],
    ['100 York St', 100, '100', 'york st'],
    ['15 York', 15, '15', 'york'],
  ])('%s', (text, number, numberText, street) => {
    expect(parseAddress(text)).toMatchObject({ number, numberText, street });
  });

  test('the street as written, for labels: apostrophes kept, the unit and the city left out', () => {
    expect(parseAddress("1871 O'CONNOR DR, Toronto")?.streetText).toBe("o'connor dr");
    expect(parseAddress('10 The East Mall Unit 4')?.streetText).toBe('the east mall');
    expect(parseAddress('317 Dundas Street West, Toronto, ON M5T 1G4')?.streetText).toBe('dundas street west');
  });

  test.each(['Bloor-Yonge', 'Leslieville', 'Tim Hortons', '401', '', '   ', ', Toronto', '#5'])('%j is not an address', (text) => {
    expect(parseAddress(text)).toBeNull();
  });
});

describe('names', () => {
  test('words take one form, whatever the case and punctuation', () => {
    expect(normaliseWords('St. Lawrence-East Bayfront')).toBe('st lawrence e bayfront');
    expect(normaliseWords('Café Diplomático')).toBe('cafe diplomatico');
    expect(normaliseWords("Tim Horton's")).toBe(normaliseWords('TIM HORTONS'));
  });

  test('a station is found with or without "station"', () => {
    expect(normaliseStationName('bloor yonge station')).toBe(normaliseStationName('Bloor-Yonge'));
    expect(normaliseStationName('Main Street Station')).toBe(normaliseStationName('Main Street'));
    expect(normaliseStationName('St. George stn')).toBe(normaliseStationName('St George'));
  });
});
