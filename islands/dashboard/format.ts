// Wording helpers of the dashboard (spec 1 §2): pluralised labels, 'No …' at zero.

export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return n === 1 ? singular : pluralForm;
}

/** '3 Saved Articles', '1 Saved Article', 'No Saved Articles'. */
export function countLabel(n: number, singular: string, pluralForm = `${singular}s`): string {
  return n === 0 ? `No ${pluralForm}` : `${n} ${plural(n, singular, pluralForm)}`;
}

export const GREETINGS = ['Hi there,', 'Welcome back,', "What's up,"] as const;

export function pickGreeting(random: () => number = Math.random): string {
  return GREETINGS[Math.min(GREETINGS.length - 1, Math.floor(random() * GREETINGS.length))];
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('en-CA', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'America/Toronto' });
}

export function isMobileDevice(ua = typeof navigator !== 'undefined' ? navigator.userAgent : ''): boolean {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(ua);
}
