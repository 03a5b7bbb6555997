import { createAction } from '@reduxjs/toolkit';

/** On a neighbourhood hub the neighbourhood is the path: choosing another one is another page. */
export const neighbourhoodHubChosen = createAction<{ id: number; slug: string } | null>('listingSearch/neighbourhoodHubChosen');
