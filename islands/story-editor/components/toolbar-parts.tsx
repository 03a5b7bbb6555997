import type { KeyboardEvent } from 'react';

// What every body toolbar shares (the story's Toolbar.tsx, a place review's editor): one Tab
// stop, the arrow keys, Home and End moving between its buttons (WAI-ARIA's toolbar pattern).

export function onToolbarKeyDown(e: KeyboardEvent<HTMLDivElement>): void {
  if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
  const buttons = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>('button:not([disabled])'));
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? buttons.length - 1 : (at + (e.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length;
  e.preventDefault();
  buttons[next]?.focus();
}
