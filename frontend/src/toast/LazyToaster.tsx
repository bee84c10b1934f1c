import { lazy, Suspense, useEffect, useState } from 'react';
import { subscribeToasts } from './toast';

const Toaster = lazy(() => import('./Toaster').then((m) => ({ default: m.Toaster })));

/** Loads the toast UI (MUI Alert) on the first toast, keeping it out of the first paint. */
export function LazyToaster() {
  const [needed, setNeeded] = useState(false);
  useEffect(() => subscribeToasts((t) => t.length > 0 && setNeeded(true)), []);
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
