// The places desk's map pin (issue 39): the staff locate route the form's place-pin island asks,
// what it answers, and the line the island (and the page, if it likes) prints from it.

export const PLACE_LOCATE_API = '/api/v2/places-desk/locate/';

/** Where a point is: its neighbourhood (by boundary) and nearest station; both null outside Toronto. */
export interface PlaceLocationDTO {
  neighbourhood: { id: number; name: string } | null;
  station: { id: number; name: string; distanceM: number } | null;
}

/** "Neighbourhood: X · Nearest station: Y (350 m)", or why there is none. */
export function describePlaceLocation(loc: PlaceLocationDTO): string {
  if (!loc.neighbourhood) return 'That point is outside Toronto.';
  const station = loc.station ? ` · Nearest station: ${loc.station.name} (${formatMetres(loc.station.distanceM)})` : '';
  return `Neighbourhood: ${loc.neighbourhood.name}${station}`;
}

/** 350 m under a kilometre, 1.2 km from there. */
export function formatMetres(m: number): string {
  return m < 1000 ? `${Math.round(m / 10) * 10} m` : `${(m / 1000).toFixed(1)} km`;
}
