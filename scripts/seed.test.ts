import { DEFAULT_SEED } from './seed/demo';
import { parseArgs } from './seed';

// npm run seed's arguments: --factor sizes the city seed (issue 41, target 6: the doubled city)
// and means nothing without --scale city, so it is refused there rather than ignored.

describe('npm run seed arguments', () => {
  test('the default is the demo, factor 1', () => {
    expect(parseArgs([])).toEqual({ force: false, scale: 'demo', seed: DEFAULT_SEED, factor: 1 });
    expect(parseArgs(['--scale', 'city'])).toEqual({ force: false, scale: 'city', seed: DEFAULT_SEED, factor: 1 });
  });

  test('--factor with --scale city, in either order and either spelling', () => {
    expect(parseArgs(['--scale', 'city', '--factor', '2'])).toMatchObject({ scale: 'city', factor: 2 });
    expect(parseArgs(['--factor=2', '--scale=city', '--seed', '7', '--force'])).toEqual({ force: true, scale: 'city', seed: 7, factor: 2 });
    expect(parseArgs(['--scale', 'city', '--factor', '0.5'])).toMatchObject({ factor: 0.5 });
  });

  test('refuses a factor that is not a positive number, or without --scale city', () => {
    for (const bad of ['0', '-1', 'two', '2x', '', 'Infinity']) {
      expect(() => parseArgs(['--scale', 'city', '--factor', bad])).toThrow(`--factor must be a number above 0, got "${bad}"`);
    }
    expect(() => parseArgs(['--scale', 'city', '--factor'])).toThrow('--factor needs a value');
    expect(() => parseArgs(['--factor', '2'])).toThrow('--factor needs --scale city');
    expect(() => parseArgs(['--scale', 'demo', '--factor', '2'])).toThrow('--factor needs --scale city');
    expect(() => parseArgs(['--scale', 'city2'])).toThrow('--scale must be demo or city, got "city2"');
    expect(() => parseArgs(['--colour'])).toThrow('Unknown argument --colour (expected --force, --scale demo|city, --factor N, --seed N)');
  });
});
