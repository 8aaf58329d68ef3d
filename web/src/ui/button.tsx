// The app's button: primary (gold, the one action of a view), secondary, ghost and danger. `busy` disables it and
// shows `busyLabel` ('Sending...', 'Loading...') in place of the label, as the spec's forms do.
import { type ButtonHTMLAttributes, forwardRef, type ReactNode } from 'react';
import './button.css';

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'sm' | 'md' | 'lg';
  busy?: boolean;
  busyLabel?: string;
  /** An icon before the label. */
  icon?: ReactNode;
  block?: boolean;
};

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'secondary', size = 'md', busy = false, busyLabel, icon, block = false, className, children, disabled, type = 'button', ...rest },
  ref,
) {
  const classes = ['btn', `btn--${variant}`, `btn--${size}`, block ? 'btn--block' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button ref={ref} type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {icon ? <span className="btn__icon" aria-hidden="true">{icon}</span> : null}
      <span>{busy && busyLabel ? busyLabel : children}</span>
    </button>
  );
});

/** A link styled as a button (react-router's Link or a plain anchor is passed as `as`). */
export function buttonClass(variant: NonNullable<ButtonProps['variant']> = 'secondary', size: NonNullable<ButtonProps['size']> = 'md', block = false): string {
  return ['btn', `btn--${variant}`, `btn--${size}`, block ? 'btn--block' : ''].filter(Boolean).join(' ');
}
