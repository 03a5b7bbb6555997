import { startAdSlots } from './ad-slot';

// The ad slots' script (no React): printed by templates/partials/ad-slot.njk as a module, so it
// runs after the page is parsed and never holds up its first paint.
startAdSlots();
