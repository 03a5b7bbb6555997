// A street's map label. Addresses are parsed by the geocoder's parser (server/apps/geocoder/
// normalise.ts), the one both the geocoder and the map's street builder use, so that they
// agree on a number and a street.

/** A street as written, as a map label: "st clair ave w" -> "St Clair Ave W", "MCCAUL ST" -> "McCaul St". */
export function streetLabel(street: string): string {
  return street
    .toUpperCase()
    .split(' ')
    .map((w) => (w.length === 1 ? w : w[0] + w.slice(1).toLowerCase()))
    .map((w) => w.replace(/^Mc([a-z])/, (_, c: string) => `Mc${c.toUpperCase()}`).replace(/^O'([a-z])/, (_, c: string) => `O'${c.toUpperCase()}`))
    .join(' ');
}
