/// <reference types="jest" />
import { render, screen } from '@testing-library/react';
import { SideMenu } from './SideMenu';
import type { FeatureFlags } from '../../../shared/constants';

// The side menu links the Patio Guide and Photo Challenges only while their flags are on
// (a link to a section that is off would be a 404).

const ON: FeatureFlags = { listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: true, photoUpload: true, newsOnly: false };
const menu = (flags: Partial<FeatureFlags>) => render(<SideMenu site={{ name: 'Guide', cityName: 'Toronto', flags: { ...ON, ...flags } }} />);

test('links both sections when their flags are on', () => {
  menu({});
  expect(screen.getByRole('link', { name: 'Patio Guide' }).getAttribute('href')).toBe('/patios/');
  expect(screen.getByRole('link', { name: 'Photo Challenges' }).getAttribute('href')).toBe('/photo-challenges/');
});

test('hides each link when its flag is off, and the Patio Guide without listings', () => {
  menu({ patioGuide: false, photoChallenges: false });
  expect(screen.queryByRole('link', { name: 'Patio Guide' })).toBeNull();
  expect(screen.queryByRole('link', { name: 'Photo Challenges' })).toBeNull();
});

test('the Patio Guide needs listings too', () => {
  menu({ listings: false });
  expect(screen.queryByRole('link', { name: 'Patio Guide' })).toBeNull();
  expect(screen.getByRole('link', { name: 'Photo Challenges' })).toBeTruthy();
});
