import { Provider } from 'react-redux';
import { Navbar, type NavbarProps } from './components/Navbar';
import { SocialContext } from './context';
import type { NavbarStore } from './store';
import type { NavbarInitialState } from './types';

export function NavbarApp({ store, social, ...props }: NavbarProps & { store: NavbarStore; social: NavbarInitialState['social'] }) {
  return (
    <Provider store={store}>
      <SocialContext.Provider value={social ?? { facebook: false, apple: false, appleClientId: null }}>
        <Navbar {...props} />
      </SocialContext.Provider>
    </Provider>
  );
}
