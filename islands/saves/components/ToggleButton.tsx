import type { ReactNode } from 'react';

// A save toggle: one constant label, its state in aria-pressed (and a filled or empty icon),
// busy while its call is in flight.

export interface ToggleButtonProps {
  label: string;
  pressed: boolean;
  busy: boolean;
  icon: [on: ReactNode, off: ReactNode];
  onToggle: () => void;
  className?: string;
}

export function ToggleButton({ label, pressed, busy, icon, onToggle, className }: ToggleButtonProps) {
  return (
    <button
      type="button"
      className={`save-toggle ${pressed ? 'is-active' : ''} ${className ?? ''}`}
      aria-pressed={pressed}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={onToggle}
    >
      <span className="save-toggle__icon" aria-hidden="true">
        {pressed ? icon[0] : icon[1]}
      </span>{' '}
      {label}
    </button>
  );
}
