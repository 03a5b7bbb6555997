import { Provider } from 'react-redux';
import { mountIsland } from '../common/mount';
import { initialStateFor, siteConfig } from '../common/initial-state';
import { readCookie } from '../common/api';
import { writeCookie } from '../common/cookie';
import { offeredGuestFields } from '../../shared/newsletter-prompt';
import { newsletterPromptApi } from './api';
import { NewsletterPrompt } from './components/NewsletterPrompt';
import { createNewsletterPromptStore } from './store';

// The newsletter prompt (spec 2 §3, §4). The page prints the same empty placeholder for
// everybody; whether to show it (the type's closed cookie) is decided here, in the browser.
// Without JavaScript there is no prompt: the footer's signup form is always there.
mountIsland('newsletter-prompt', () => {
  const initial = initialStateFor('newsletter-prompt');
  if (!initial) return null;
  const config = siteConfig();
  const store = createNewsletterPromptStore(initial.type, {
    api: newsletterPromptApi,
    readCookie,
    writeCookie,
    offered: offeredGuestFields(config.flags as unknown as Record<string, boolean>),
  });
  return (
    <Provider store={store}>
      <NewsletterPrompt siteName={config.name} />
    </Provider>
  );
});
