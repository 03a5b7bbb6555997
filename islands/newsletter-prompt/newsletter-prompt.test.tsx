/// <reference types="jest" />
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithStore } from '../common/test-utils';
import { ApiError } from '../common/api';
import { TIMINGS_MS } from '../../shared/constants';
import { looksLikeEmail, offeredGuestFields, PROMPT_COOKIE_MAX_AGE_SECONDS, promptCookieName } from '../../shared/newsletter-prompt';
import { NewsletterPrompt } from './components/NewsletterPrompt';
import { INVALID_EMAIL, initialPromptState, prompt, promptSlice } from './slices/prompt';
import { subscriptionBody } from './sagas';
import { createNewsletterPromptStore } from './store';

// The prompt's rules (spec 2 §4, §9): not shown while its type's cookie exists; a valid
// submit subscribes; closing sets a 30-day cookie named per type; both hide after 3000 ms.

function setup(cookies: Record<string, string> = {}, subscribe: jest.Mock = jest.fn().mockResolvedValue({})) {
  const writeCookie = jest.fn();
  const store = createNewsletterPromptStore('events', {
    api: { subscribe },
    readCookie: (name) => cookies[name],
    writeCookie,
    offered: ['news', 'events', 'foods', 'promotions'],
  });
  renderWithStore(<NewsletterPrompt siteName="City Guide" />, store);
  return { store, writeCookie, subscribe };
}

describe('newsletter prompt state', () => {
  const reduce = promptSlice.reducer;

  test('an invalid email stays in editing with the message; a valid one goes pending', () => {
    let s = reduce(initialPromptState('events'), prompt.checked({ cookie: false }));
    s = reduce(reduce(s, prompt.edited({ email: 'nope' })), prompt.submitted('nope'));
    expect([s.status, s.error]).toEqual(['editing', INVALID_EMAIL]);
    s = reduce(reduce(s, prompt.edited({ email: 'a@b.ca' })), prompt.submitted('a@b.ca'));
    expect([s.status, s.error]).toEqual(['pending', null]);
    expect(reduce(s, prompt.failed('Enter a valid email address.')).status).toBe('editing');
  });

  test('the cookie hides the prompt for good; hiding follows only subscribing or closing', () => {
    expect(reduce(initialPromptState('events'), prompt.checked({ cookie: true })).status).toBe('gone');
    const editing = reduce(initialPromptState('events'), prompt.checked({ cookie: false }));
    expect(reduce(editing, prompt.hidden()).status).toBe('editing');
    expect(reduce(reduce(editing, prompt.closed()), prompt.hidden()).status).toBe('gone');
  });

  test('the subscription: the prompt’s newsletter, promotions when ticked, every offered one for all', () => {
    const s = { ...initialPromptState('events'), email: ' a@b.ca ' };
    expect(subscriptionBody(s, ['news', 'events'])).toEqual({ email: 'a@b.ca', events: true });
    expect(subscriptionBody({ ...s, promotions: true }, ['news'])).toEqual({ email: 'a@b.ca', events: true, promotions: true });
    expect(subscriptionBody({ ...s, all: true }, ['news', 'events', 'foods'])).toEqual({ email: 'a@b.ca', events: true, news: true, foods: true });
  });

  test('one cookie per type, 30 days; the offered newsletters follow the feature flags; the email check', () => {
    expect(promptCookieName('events')).toBe('newsletter_prompt_closed_events');
    expect(promptCookieName('foods')).not.toBe(promptCookieName('events'));
    expect(PROMPT_COOKIE_MAX_AGE_SECONDS).toBe(30 * 86400);
    expect(offeredGuestFields({ events: false, listings: false, contests: false, photoChallenges: false })).toEqual(['news', 'promotions']);
    expect(looksLikeEmail('someone@example.com')).toBe(true);
    expect(looksLikeEmail('someone@')).toBe(false);
    expect(looksLikeEmail(`${'a'.repeat(250)}@example.com`)).toBe(false);
  });
});

describe('newsletter prompt on a page', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('not shown while its cookie exists', () => {
    setup({ newsletter_prompt_closed_events: '1' });
    expect(screen.queryByRole('complementary')).toBeNull();
  });

  test('subscribing shows the success message, remembers, and hides after 3000 ms', async () => {
    const h = setup();
    expect(screen.getByRole('heading', { name: 'Get Top Events from City Guide' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'reader@example.com' } });
    fireEvent.click(screen.getByLabelText('Sign me up for all newsletters'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    });
    expect(h.subscribe).toHaveBeenCalledWith({ email: 'reader@example.com', events: true, news: true, foods: true, promotions: true });
    expect(screen.getByRole('heading', { name: 'Submitted' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/Thanks for signing up/);
    expect(h.writeCookie).toHaveBeenCalledWith('newsletter_prompt_closed_events', '1', { maxAgeSeconds: PROMPT_COOKIE_MAX_AGE_SECONDS });
    await act(async () => jest.advanceTimersByTime(TIMINGS_MS.newsletterPromptHide - 1));
    expect(screen.queryByRole('complementary')).not.toBeNull();
    await act(async () => jest.advanceTimersByTime(1));
    expect(screen.queryByRole('complementary')).toBeNull();
  });

  test('a refused address shows the server’s first email error and keeps the form', async () => {
    const h = setup({}, jest.fn().mockRejectedValue(new ApiError(400, { email: ['Enter a valid email address.'] })));
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'x@y.zz' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('* Enter a valid email address.');
    expect(h.writeCookie).not.toHaveBeenCalled();
  });

  test('an invalid email is caught before any request', () => {
    const h = setup();
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'not an email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('alert').textContent).toBe(`* ${INVALID_EMAIL}`);
    expect(h.subscribe).not.toHaveBeenCalled();
  });

  test('closing sets the type’s 30-day cookie, says so, and hides after 3000 ms', async () => {
    const h = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Close the newsletter prompt' }));
    expect(h.writeCookie).toHaveBeenCalledWith('newsletter_prompt_closed_events', '1', { maxAgeSeconds: 30 * 86400 });
    expect(screen.getByRole('status').textContent).toMatch(/won’t ask again for 30 days/);
    await act(async () => jest.advanceTimersByTime(TIMINGS_MS.newsletterPromptHide));
    expect(screen.queryByRole('complementary')).toBeNull();
  });
});
