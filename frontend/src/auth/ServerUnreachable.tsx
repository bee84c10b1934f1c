import { FullPageSpinner } from '../components/FullPageSpinner';

/**
 * Shown by the route guards when the user's role could not be read because the server was
 * unreachable. It must not claim a permission problem. It is in the entry chunk (kept tiny for
 * the 120 kB budget of /) because a lazy chunk may not load when the network is down.
 */
export function ServerUnreachable({ onRetry }: { onRetry: () => void }) {
  return (
    <FullPageSpinner
      spinner={false}
      text={
        <>
          <h1>Can't reach the server</h1>
          <p>Unable to reach the server. Check your connection and try again. You are still signed in.</p>
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        </>
      }
    />
  );
}
