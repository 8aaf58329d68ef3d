// Never a blank screen: the route error boundary and the top-level one both show the spec's
// 'Unexpected Application Error!' (accounts spec §8, the default routing fallback), with what went wrong and a way on.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { LogoMark } from '../ui/icons.js';
import './app-error.css';

export const APP_ERROR_TEXT = 'Unexpected Application Error!';

/** A signed-in visit to a path the app does not have. */
export class NotFoundError extends Error {
  constructor(readonly path: string) {
    super(`No page at ${path}`);
    this.name = 'NotFoundError';
  }
}

function describe(error: unknown): string {
  if (error instanceof NotFoundError) return '404 Not Found';
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorScreen({ error }: { error: unknown }) {
  return (
    <main id="main" className="app-error" data-testid="app-error">
      <LogoMark width={48} height={48} />
      <h1>{APP_ERROR_TEXT}</h1>
      <p className="app-error__detail">{describe(error)}</p>
      <div className="app-error__actions">
        <a className="btn btn--primary btn--md" href="/browse">Back to the catalogue</a>
        <button type="button" className="btn btn--secondary btn--md" onClick={() => window.location.reload()}>Reload</button>
      </div>
    </main>
  );
}

/**
 * Around the app (`resetKey` unset) and around the routes (`resetKey` = the path, so that leaving a broken page
 * recovers): a render error shows the error screen instead of a blank page.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: unknown; key: string | undefined }> {
  override state: { error: unknown; key: string | undefined } = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: { error: unknown; key: string | undefined }) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (!(error instanceof NotFoundError)) console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error !== null ? <ErrorScreen error={this.state.error} /> : this.props.children;
  }
}
