import { repairMojibake } from './mojibake';
import { readEstablishments } from './data-files';

describe('repairMojibake', () => {
  it.each([
    ['68Â°C STONE & GRILL', '68°C STONE & GRILL'],
    // Twice through the round trip, with a C1 control byte in the middle.
    ['CAFÃ\u0083Â\u0089 PLENTY', 'CAFÉ PLENTY'],
    ['Istanbul CafÃ\u0083Â© & Espresso Bar', 'Istanbul Café & Espresso Bar'],
    ['KING DÃ\u0083Â\u0096NER', 'KING DÖNER'],
    // A curly apostrophe three bytes long, twice encoded.
    ['HowÃ\u0083Â¢Ã\u0082Â\u0080Ã\u0082Â\u0099s Apple Dumplings', 'How’s Apple Dumplings'],
    // Windows-1252 flavour: â€™ is ’ read through cp1252.
    ['Joeâ€™s Diner', 'Joe’s Diner'],
  ])('repairs %j', (broken, clean) => {
    expect(repairMojibake(broken)).toBe(clean);
  });

  it.each(['Café Plenty', 'Crème Brûlée Bar', 'São Paulo', 'Ñandú', '1 Hotel Toronto - Harriet’s', 'Plain text', '東京'])(
    'leaves clean text %j as it is',
    (clean) => {
      expect(repairMojibake(clean)).toBe(clean);
    },
  );

  it('leaves no mojibake in the imported DineSafe names and addresses', () => {
    const rows = readEstablishments();
    const broken = rows.filter((r) => /[ÃÂ][\u0080-\u00bf]|â€/.test(r.name + r.address) || /[\u0080-\u009f]/.test(r.name));
    expect(broken.map((r) => r.name)).toEqual([]);
    expect(rows.find((r) => r.establishment_id === 10799554)?.name).toBe('68°C STONE & GRILL');
  });
});
