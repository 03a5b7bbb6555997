import { useEffect, useLayoutEffect, useId, useRef, type ReactNode, type RefObject } from 'react';

// A modal dialog: labelled by its title, Esc and the backdrop close it, focus moves into it
// on open (the first field) and back to where it was on close, Tab stays inside. A dialog
// that must be answered (the age gate) is not dismissible: no close button, and neither Esc
// nor the backdrop closes it.

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** false: only the dialog's own buttons close it. */
  dismissible?: boolean;
  /** The id of the text that describes the dialog (aria-describedby). */
  describedBy?: string;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The keyboard of a modal: on open, focus moves into `ref` (its first field, else its first
 * control); Esc closes it unless it must be answered; Tab and Shift+Tab go round its controls;
 * on close, focus goes back to where it was. For modals with their own look (the full-screen map).
 */
export function useModalFocus(ref: RefObject<HTMLElement | null>, onClose: () => void, dismissible = true): void {
  const closeRef = useRef(onClose);
  const dismissibleRef = useRef(dismissible);
  useLayoutEffect(() => {
    closeRef.current = onClose;
    dismissibleRef.current = dismissible;
  });

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const el = ref.current;
    (el?.querySelector<HTMLElement>('input, textarea, select') ?? el?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        if (dismissibleRef.current) closeRef.current();
        else e.preventDefault();
      } else if (e.key === 'Tab' && el) {
        const items = Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (!items.length) return;
        const first = items[0];
        const last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [ref]);
}

export function Dialog({ title, onClose, children, className, dismissible = true, describedBy }: DialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useModalFocus(ref, onClose, dismissible);

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => dismissible && e.target === e.currentTarget && onClose()}>
      <div ref={ref} className={`dialog ${className ?? ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={describedBy}>
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">{title}</h2>
          {dismissible && (
            <button type="button" className="dialog__close" aria-label="Close" onClick={onClose}>
              ×
            </button>
          )}
        </div>
        <div className="dialog__body">{children}</div>
      </div>
    </div>
  );
}
