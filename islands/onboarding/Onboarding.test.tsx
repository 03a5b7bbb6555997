/// <reference types="jest" />
import '../common/test-polyfills';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { createOnboardingStore, FINAL_TEXT, OnboardingApp } from './App';
import { profile } from '../dashboard/testing';
import type { FeatureFlags } from '../../shared/constants';

const FLAGS: FeatureFlags = { listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: true, photoUpload: true, newsOnly: false };

function setup(initialPath = '/') {
  const api = { profile: jest.fn(async () => profile()), patchProfile: jest.fn(async (p: object) => profile(p)) };
  const leave = jest.fn();
  const store = createOnboardingStore(profile(), { api, navigate: jest.fn() });
  render(<OnboardingApp store={store} initialPath={initialPath} next="/events/" flags={FLAGS} facebookPageUrl={null} leave={leave} />);
  return { api, leave };
}

describe('the onboarding wizard', () => {
  test('walks / → step 1 … 4 → final, sending nothing when step 3 is unchanged, then leaves after 3 s', async () => {
    jest.useFakeTimers();
    const { api, leave } = setup();
    expect(screen.getByRole('heading', { name: 'Hi there!' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Steps' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next Step' }));
    fireEvent.click(screen.getByRole('button', { name: "Got it, what's next?" }));
    expect(screen.getByRole('heading', { name: 'Want more?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'One more step' }));
    expect(api.patchProfile).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Thumbs up!' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Huzzah, all done!' }));
    expect(screen.getByText(FINAL_TEXT)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Steps' })).toBeNull();
    act(() => jest.advanceTimersByTime(2999));
    expect(leave).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(leave).toHaveBeenCalledWith('/events/');
    jest.useRealTimers();
  });

  test('step 3 sends a PATCH when a box or the email changed, and needs an email', async () => {
    const { api } = setup('/step-3');
    const email = screen.getByLabelText('Email');
    fireEvent.change(email, { target: { value: '' } });
    expect((screen.getByRole('button', { name: 'One more step' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(email, { target: { value: 'gilbert@example.com' } });
    fireEvent.click(screen.getByLabelText(/Top Events/));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'One more step' }));
    });
    expect(api.patchProfile).toHaveBeenCalledWith(expect.objectContaining({ email: 'gilbert@example.com', settings_receive_newsletter_events: true }));
    expect(await screen.findByRole('heading', { name: 'Thumbs up!' })).toBeTruthy();
  });
});

describe('onboarding step 4', () => {
  test("shows the social page's card, linking to the page in a new tab", () => {
    const store = createOnboardingStore(profile(), { api: { profile: jest.fn(), patchProfile: jest.fn() }, navigate: jest.fn() });
    render(<OnboardingApp store={store} initialPath="/step-4" next="/accounts/dashboard/" flags={FLAGS} facebookPageUrl="https://www.facebook.com/theguide" siteName="The Toronto Guide" leave={jest.fn()} />);
    const card = screen.getByRole('complementary', { name: 'The Toronto Guide on Facebook' });
    const like = card.querySelector('a')!;
    expect(like.textContent).toBe('Like our page (opens in a new tab)');
    expect([like.getAttribute('href'), like.getAttribute('target'), like.getAttribute('rel')]).toEqual(['https://www.facebook.com/theguide', '_blank', 'noopener noreferrer']);
    expect(screen.getByRole('button', { name: 'Huzzah, all done!' })).toBeTruthy();
  });
});
