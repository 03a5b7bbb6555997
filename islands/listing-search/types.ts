// The hub's criteria, the state the hub page prints for this island and the rules that map them
// to URLs and API queries are shared with the server: shared/listing-hub.ts.

export type ViewMode = 'list' | 'map';
