import { useEffect, useRef, useState, type ReactNode } from 'react';
import { TIMINGS_MS } from '../../../shared/constants';

// A save toggle: one constant label, its state in aria-pressed (and a filled or empty icon),
// busy while its call is in flight. When the member turns it on, the icon plays its animation
// once, for the spec's 1200 ms (spec 2 §9); not when a saved state merely arrives from the server.

export interface ToggleButtonProps {
  label: string;
  pressed: boolean;
  busy: boolean;
  icon: [on: ReactNode, off: ReactNode];
  onToggle: () => void;
  className?: string;
}

export function ToggleButton({ label, pressed, busy, icon, onToggle, className }: ToggleButtonProps) {
  const clicked = useRef(false);
  const [animating, setAnimating] = useState(false);
  useEffect(() => {
    if (!pressed || !clicked.current) return;
    clicked.current = false;
    setAnimating(true);
    // A timer rather than animationend: with reduced motion no animation runs to end it.
    const done = setTimeout(() => setAnimating(false), TIMINGS_MS.iconAnimation);
    return () => clearTimeout(done);
  }, [pressed]);
  return (
    <button
      type="button"
      className={`save-toggle ${pressed ? 'is-active' : ''} ${className ?? ''}`}
      aria-pressed={pressed}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={() => {
        clicked.current = !pressed;
        onToggle();
      }}
    >
      <span
        className={`save-toggle__icon${animating ? ' is-animating' : ''}`}
        style={animating ? { animationDuration: `${TIMINGS_MS.iconAnimation}ms` } : undefined}
        aria-hidden="true"
      >
        {pressed ? icon[0] : icon[1]}
      </span>{' '}
      {label}
    </button>
  );
}
