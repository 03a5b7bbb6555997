import { csvField, csvLine } from './tabular';

describe('CSV fields of the export', () => {
  test('quotes commas, quotes and line breaks; writes times as ISO and nulls as empty', () => {
    expect(csvLine(['plain', 'a, b', 'say "hi"', 'two\nlines', null, undefined, 4, true, new Date('2026-11-25T10:00:00Z')])).toBe(
      'plain,"a, b","say ""hi""","two\nlines",,,4,true,2026-11-25T10:00:00.000Z\r\n',
    );
  });

  test('a text that a spreadsheet would run as a formula is written as text', () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField('+1 416 555 0100')).toBe("'+1 416 555 0100");
    expect(csvField('@name')).toBe("'@name");
    // Numbers are numbers: a negative longitude stays one.
    expect(csvField(-79.38)).toBe('-79.38');
  });
});
