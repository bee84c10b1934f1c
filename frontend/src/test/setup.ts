import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { auth } from '../api';
import { clearToasts } from '../toast/toast';

// The first render of a lazy page transforms its modules on demand; under a parallel run that
// can take more than the default 1 s.
configure({ asyncUtilTimeout: 15_000 });

// React Flow (admin rule designer) measures with ResizeObserver, which jsdom lacks.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in globalThis)) {
  (globalThis as unknown as { ResizeObserver: typeof ResizeObserverStub }).ResizeObserver = ResizeObserverStub;
}
if (!window.scrollTo) window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  auth.reset();
  clearToasts();
  localStorage.clear();
  sessionStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
