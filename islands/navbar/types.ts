import type { FeatureFlags } from '../../shared/constants';
import type { NavbarStateDTO, NavLinkDTO, NavUserDTO } from '../../shared/dto';

// The state the page prints for the navbar (NavbarStateDTO, built by
// server/http/navbar.ts). Every field may be missing from an older page, so the
// island defaults.

export type NavLink = NavLinkDTO;
export type NavUser = NavUserDTO;
export type NavbarInitialState = Partial<NavbarStateDTO>;

export interface NavbarSite {
  name: string;
  cityName: string;
  flags: FeatureFlags;
}
