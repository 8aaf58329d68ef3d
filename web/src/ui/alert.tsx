// An inline message the screen reader announces: errors (role=alert) and confirmations (role=status).
import type { ReactNode } from 'react';
import './alert.css';

export function Alert({ tone = 'error', children, testId }: { tone?: 'error' | 'success' | 'info'; children: ReactNode; testId?: string }) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}
