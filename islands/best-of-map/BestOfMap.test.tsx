/// <reference types="jest" />
import { act, fireEvent, render, screen } from '@testing-library/react';
import { BestOfMap } from './BestOfMap';
import { listing } from '../listing-search/testing';
import { loadMapEngine as realLoadMapEngine } from '../common/maps/loader';
import type { MapEngine, MapHandle } from '../common/maps/types';

// The Best of list's full-screen map: View Map opens a modal dialog over the whole window,
// Close Map and Esc close it and give focus back; without WebGL it lists the places.

jest.mock('../common/maps/loader', () => ({ loadMapEngine: jest.fn() }));
const loadMapEngine = realLoadMapEngine as jest.Mock;
const handle = { setPoints: jest.fn(), bounds: jest.fn(), onMoveEnd: jest.fn(), whenStill: jest.fn(), resize: jest.fn(), destroy: jest.fn() } as jest.Mocked<MapHandle>;
const engine: MapEngine = { create: jest.fn().mockResolvedValue(handle) };

const state = { title: 'Best pizza in Toronto', listings: [listing(1, { appears_in_best_of_lists: true }), listing(2)] };
const props = { state, siteUrl: 'https://site.test', cityName: 'Toronto', centre: { latitude: 43.65, longitude: -79.38 } };
const flush = () => act(async () => { for (let i = 0; i < 5; i += 1) await Promise.resolve(); });

describe('best-of full-screen map', () => {
  beforeEach(() => jest.clearAllMocks());

  test('View Map opens the map full screen with the places as best-of markers; Close Map closes it and focus goes back', async () => {
    loadMapEngine.mockResolvedValue(engine);
    render(<BestOfMap {...props} />);
    const open = screen.getByRole('button', { name: 'View Map' });
    expect(loadMapEngine).not.toHaveBeenCalled();
    fireEvent.click(open);
    await flush();
    const dialog = screen.getByRole('dialog', { name: 'Best pizza in Toronto' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.documentElement.classList.contains('has-full-screen-map')).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close Map' }));
    const opts = (engine.create as jest.Mock).mock.calls[0][1];
    expect(opts).toMatchObject({ fit: 'points', popupMaxWidth: 300, label: 'Map of Best pizza in Toronto' });
    expect(opts.points.map((p: { id: number; kind: string }) => [p.id, p.kind])).toEqual([[1, 'best-of'], [2, 'listing']]);
    expect(dialog.querySelector('[data-map-status="ready"]')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Close Map' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(handle.destroy).toHaveBeenCalled();
    expect(document.documentElement.classList.contains('has-full-screen-map')).toBe(false);
    expect(document.activeElement).toBe(open);
  });

  test('Esc closes it; without WebGL the dialog lists the places instead', async () => {
    loadMapEngine.mockRejectedValue(new Error('no WebGL'));
    render(<BestOfMap {...props} />);
    fireEvent.click(screen.getByRole('button', { name: 'View Map' }));
    await flush();
    expect(screen.getByRole('link', { name: 'Place 1' }).getAttribute('href')).toBe('/restaurants/place-1-1/');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
