import type { ReactNode } from 'react';
import { ErrorBox } from './ui.js';

/**
 * The confirmation of an action that changes the book: it says what the action does (`says`),
 * takes any field it needs (`children`), and acts only on its own button. Escape and Back close
 * it; the focus starts on Back (or on a field of `children` that asks for it), so a stray Enter
 * never posts.
 */
export function Confirm({
  label,
  says,
  button,
  danger = false,
  disabled = false,
  pending,
  error,
  onConfirm,
  onBack,
  children,
}: {
  label: string;
  says: ReactNode;
  button: string;
  danger?: boolean;
  /** The action cannot be taken yet (a required field is empty). */
  disabled?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onBack: () => void;
  /** Fields of the action; one with `autoFocus` takes the focus from Back. */
  children?: ReactNode;
}) {
  return (
    <div
      className="panel confirm"
      role="dialog"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onBack();
      }}
    >
      <p>{says}</p>
      {children}{' '}
      <button
        type="button"
        className={danger ? 'danger' : undefined}
        disabled={pending || disabled}
        onClick={onConfirm}
      >
        {button}
      </button>{' '}
      <button type="button" autoFocus={children === undefined} onClick={onBack}>
        Back
      </button>
      <ErrorBox error={error} />
    </div>
  );
}
