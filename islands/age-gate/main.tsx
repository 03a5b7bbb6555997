import { Provider } from 'react-redux';
import { mountIsland } from '../common/mount';
import { initialStateFor } from '../common/initial-state';
import { readCookie } from '../common/api';
import { writeCookie } from '../common/cookie';
import { AgeGate } from './components/AgeGate';
import { createAgeGateStore } from './store';

// The age gate of the cannabis section as a dialog over the gated page (spec 2 §2, §4). The
// server prints it only for a reader with no answer yet; the island still reads the cookie
// itself, so a page restored from the browser's cache after an answer behaves. Without
// JavaScript the page's <noscript> refresh leads to the full gate page (/age-gate/) instead.
mountIsland('age-gate', (el) => {
  const initial = initialStateFor('age-gate');
  const store = createAgeGateStore(initial?.legalAge ?? 19, { readCookie, writeCookie, navigate: (url) => window.location.assign(url) });
  return (
    <Provider store={store}>
      <AgeGate root={el} />
    </Provider>
  );
});
