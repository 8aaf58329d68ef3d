// A spinner with an accessible name, and the full-page one shown until the session is known (accounts spec §2).
import './spinner.css';

export function Spinner({ label = 'Loading...', size = 32 }: { label?: string; size?: number }) {
  return (
    <span className="spinner" role="status" style={{ width: size, height: size }}>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

export function FullPageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="full-page-spinner" data-testid="full-page-spinner">
      <Spinner label={label} size={44} />
    </div>
  );
}
