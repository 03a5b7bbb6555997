import { normaliseStationName, normaliseWords, parseAddress } from './normalise';

// The forms people type and the forms DineSafe registers must meet on one street key.

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
    ['1652 Saint Clair Avenue West', 1652, '1652', 'st clair ave w'],
    ['1652 ST. CLAIR AVE. W.', 1652, '1652', 'st clair ave w'],
    ['2 Bloor Blvd', 2, '2', 'bloor blvd'],
    ['2 Bloor Boulevard', 2, '2', 'bloor blvd'],
    ['10 Lesmill Road', 10, '10', 'lesmill rd'],
    ['15 Toronto St', 15, '15', 'toronto st'],
    ['100 York St', 100, '100', 'york st'],
    ['15 York', 15, '15', 'york'],
  ])('%s', (text, number, numberText, street) => {
    expect(parseAddress(text)).toEqual({ number, numberText, street });
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
