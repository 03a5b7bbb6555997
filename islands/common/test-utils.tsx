import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { render } from '@testing-library/react';
import type { Store } from '@reduxjs/toolkit';

/** Renders a component with a real store (the Redux style guide's renderWithProviders). */
export function renderWithStore(ui: ReactElement, store: Store) {
  return { store, ...render(<Provider store={store}>{ui}</Provider>) };
}
