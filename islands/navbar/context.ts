import { createContext, useContext } from 'react';
import type { NavbarInitialState } from './types';

type Social = NonNullable<NavbarInitialState['social']>;

export const SocialContext = createContext<Social>({ facebook: false, apple: false, appleClientId: null });
export const useSocial = () => useContext(SocialContext);
