// Accessibility of places (issue 27): the fixed set of attributes a place is described by, the
// answers, and the rule that turns members' reports into an answer. Written once for the server
// (validation, search filter, JSON-LD, pages) and the islands (the hub's filter checkboxes).

/** The attributes, in the order pages list them. Keys are API values; never rename one. */
export const ACCESSIBILITY_ATTRIBUTES = [
  { key: 'step_free_entrance', label: 'Step-free entrance', help: 'No step or a ramp at the door used by the public.' },
  { key: 'accessible_washroom', label: 'Accessible washroom', help: 'A washroom a wheelchair user can enter and turn in, with grab bars.' },
  { key: 'elevator_all_floors', label: 'Elevator to all public floors', help: 'Every floor open to customers can be reached without stairs.' },
  { key: 'accessible_parking', label: 'Accessible parking nearby', help: 'A marked accessible parking space within a short walk.' },
  { key: 'seating_without_stools', label: 'Seating without stools', help: 'Tables with chairs or benches, not only bar stools.' },
  { key: 'quiet_hours', label: 'Quiet hours', help: 'Set times with music off or low and lights dimmed.' },
  { key: 'large_print_menu', label: 'Large-print or braille menu', help: 'A menu in large print or braille on request.' },
  { key: 'service_animals_welcome', label: 'Service animals welcome', help: 'Service animals are welcome inside.' },
] as const;

export type AccessibilityAttribute = (typeof ACCESSIBILITY_ATTRIBUTES)[number]['key'];

export const ACCESSIBILITY_KEYS: readonly AccessibilityAttribute[] = ACCESSIBILITY_ATTRIBUTES.map((a) => a.key);

/** What a place has, as far as anyone knows: a report is 'yes' or 'no'; 'unknown' withdraws one. */
export const ACCESSIBILITY_ANSWERS = ['yes', 'no', 'unknown'] as const;
export type AccessibilityAnswer = (typeof ACCESSIBILITY_ANSWERS)[number];

/** A report's optional note, in characters. */
export const ACCESSIBILITY_NOTE_MAX = 300;

/**
 * A "clear majority" of member reports: at least MIN reports say so, and they are at least
 * RATIO times as many as the reports saying the opposite. 2 yes and 0 no is a clear yes; 3 yes
 * and 2 no is not (3 < 4); 4 yes and 2 no is. A staff verification outranks any reports.
 */
export const ACCESSIBILITY_MAJORITY = { min: 2, ratio: 2 } as const;

export function isAccessibilityAttribute(key: string): key is AccessibilityAttribute {
  return (ACCESSIBILITY_KEYS as readonly string[]).includes(key);
}

export function accessibilityLabel(key: AccessibilityAttribute): string {
  return ACCESSIBILITY_ATTRIBUTES.find((a) => a.key === key)?.label ?? key;
}

/** Whether `count` reports are a clear majority over `against` (see ACCESSIBILITY_MAJORITY). */
export function isClearMajority(count: number, against: number): boolean {
  return count >= ACCESSIBILITY_MAJORITY.min && count >= ACCESSIBILITY_MAJORITY.ratio * against;
}

/** The answer a place has for one attribute: staff's verification, else a clear majority of reports, else unknown. */
export function accessibilityValue(s: { verified: boolean | null; yes_count: number; no_count: number }): AccessibilityAnswer {
  if (s.verified !== null) return s.verified ? 'yes' : 'no';
  if (isClearMajority(s.yes_count, s.no_count)) return 'yes';
  if (isClearMajority(s.no_count, s.yes_count)) return 'no';
  return 'unknown';
}

/** The accessibility filter's values from a comma list or repeated checkboxes, deduplicated, in the order given. */
export function accessibilityKeysOf(v: unknown): string[] {
  if (v === undefined || v === null || v === '') return [];
  const list = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : []));
  return [...new Set(list.map((s) => s.trim().toLowerCase()).filter(Boolean))];
}
